package io.kproxy.backend.iptables;

import io.kproxy.backend.RulesetHash;
import io.kproxy.backend.spi.MemoizedPlan;
import io.kproxy.model.IpFamily;
import java.time.Instant;
import java.util.Optional;

/**
 * The iptables plan: one {@link FamilyPlan} per family. No deferred work: stale chains are
 * deleted ({@code -X}) in the same restore that drops their last reference, as upstream does.
 * Immutable and thread-safe; the ruleset text and hash are computed once on demand (the hash from
 * the fragments' digests kept in the family plans, never from the text).
 */
final class IptPlan extends MemoizedPlan {

    private final FamilyPlan v4;
    private final FamilyPlan v6;

    IptPlan(FamilyPlan v4, FamilyPlan v6) {
        this.v4 = v4;
        this.v6 = v6;
    }

    FamilyPlan v4() {
        return v4;
    }

    FamilyPlan v6() {
        return v6;
    }

    @Override
    public String mode() {
        return IptablesProvider.MODE;
    }

    /**
     * Both families' {@code iptables-restore} input as upstream's {@code syncProxyRules} writes it
     * on a full sync (filter then nat, services in service-port order), each opened by a
     * {@code # IPv4} / {@code # IPv6} comment line: feed the first section to
     * {@code iptables-restore --noflush} and the second to {@code ip6tables-restore --noflush}.
     * Without the jumps from the built-in chains, which the agent ensures separately (as
     * upstream); {@link #loadableText} has them.
     */
    @Override
    protected String computeRulesetText() {
        StringBuilder b = new StringBuilder();
        RestoreWriter.canonical(b, v4);
        RestoreWriter.canonical(b, v6);
        return b.toString();
    }

    /**
     * One family's {@code iptables-restore} / {@code ip6tables-restore} input with what the agent
     * ensures outside its restore text ({@link Loadable}): loads into an empty namespace as it is.
     */
    @Override
    public String loadableText(IpFamily family) {
        return Loadable.text(family == IpFamily.IPV4 ? v4 : v6);
    }

    /**
     * {@link RulesetHash} over both families (IPv4 first): each family's head is its top-level
     * part ({@link FamilyPlan#topDigest()}), its parts are the fragments, each digested when it
     * entered the plan ({@link PortFragment#partText()}) and summed as it did: O(1) here.
     */
    @Override
    protected void hashSections(RulesetHash.Builder hash) {
        hash.section(v4.topDigest(), v4.digestSum()).section(v6.topDigest(), v6.digestSum());
    }

    @Override
    public int servicePorts() {
        return v4.fragments().size() + v6.fragments().size();
    }

    @Override
    public Optional<Instant> nextDeferredWork() {
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "IptPlan[servicePorts=" + servicePorts() + "]";
    }
}
