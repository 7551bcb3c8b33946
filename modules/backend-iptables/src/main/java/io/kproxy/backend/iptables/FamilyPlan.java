package io.kproxy.backend.iptables;

import io.kproxy.backend.RulesetHash;
import io.kproxy.backend.RulesetHash.Digest;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import java.util.List;

/**
 * One family's desired tables: the service-independent part and every service port's
 * fragment, in a persistent map so that a plan derived from another by a few {@link #with}
 * calls shares everything else with it and their diff visits only what changed. Immutable.
 *
 * @param fam          the family
 * @param top          the service-independent part
 * @param fragments    every service port's fragment, in service-port order
 * @param endpoints    endpoints of all ports together (upstream's large-cluster count)
 * @param largeCluster the fragments were rendered without per-endpoint comments
 * @param digests      every fragment's digest for {@link IptPlan#rulesetHash()} ({@link PortFragment#partText()}),
 *                     taken once, when the fragment enters the plan
 * @param digestSum    their sum, so that the hash of a plan derived by a few {@link #with} calls costs O(change)
 */
record FamilyPlan(Fam fam, TopLevel top, PersistentMap<ServicePortName, PortFragment> fragments, int endpoints, boolean largeCluster,
        PersistentMap<ServicePortName, Digest> digests, RulesetHash.Sum digestSum) {

    /** A plan without service ports. */
    static FamilyPlan empty(Fam fam, TopLevel top, boolean largeCluster) {
        return new FamilyPlan(fam, top, PersistentMap.empty(), 0, largeCluster, PersistentMap.empty(), RulesetHash.Sum.EMPTY);
    }

    /** This plan with {@code name}'s fragment replaced by {@code next}, or removed when {@code next} is null. */
    FamilyPlan with(ServicePortName name, PortFragment next) {
        PortFragment old = fragments.get(name);
        if (old == null && next == null || old != null && old.equals(next)) {
            return this;
        }
        int count = endpoints - (old == null ? 0 : old.endpoints()) + (next == null ? 0 : next.endpoints());
        var fr = next == null ? fragments.minus(name) : fragments.plus(name, next);
        Digest digest = next == null ? null : RulesetHash.digest(next.partText());
        var dg = next == null ? digests.minus(name) : digests.plus(name, digest);
        return new FamilyPlan(fam, top, fr, count, largeCluster, dg, digestSum.replace(digests.get(name), digest));
    }

    /**
     * The digest of this family's node-wide part: its header line and the top-level chains and
     * rules, each list under a marker line of its own.
     */
    Digest topDigest() {
        StringBuilder b = new StringBuilder(fam.header()).append('\n');
        section(b, "*filter chains", top.filterChains().stream().map(Words::chainLine).toList());
        section(b, "*filter head", top.filterHead());
        section(b, "*filter tail", top.filterTail());
        section(b, "*nat head", top.natHead());
        section(b, "*nat tail", top.natTail());
        return RulesetHash.digest(b);
    }

    static void section(StringBuilder b, String marker, List<String> lines) {
        b.append(marker).append('\n');
        lines.forEach(l -> b.append(l).append('\n'));
    }

    /** Upstream's rule: large-cluster mode above {@link Words#LARGE_CLUSTER_ENDPOINTS} endpoints. */
    static boolean large(int endpoints) {
        return endpoints > Words.LARGE_CLUSTER_ENDPOINTS;
    }
}
