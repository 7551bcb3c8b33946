package io.kproxy.backend.iptables;

import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;

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
 */
record FamilyPlan(Fam fam, TopLevel top, PersistentMap<ServicePortName, PortFragment> fragments, int endpoints, boolean largeCluster) {

    /** This plan with {@code name}'s fragment replaced by {@code next}, or removed when {@code next} is null. */
    FamilyPlan with(ServicePortName name, PortFragment next) {
        PortFragment old = fragments.get(name);
        if (old == null && next == null || old != null && old.equals(next)) {
            return this;
        }
        int count = endpoints - (old == null ? 0 : old.endpoints()) + (next == null ? 0 : next.endpoints());
        return new FamilyPlan(fam, top, next == null ? fragments.minus(name) : fragments.plus(name, next), count, largeCluster);
    }

    /** Upstream's rule: large-cluster mode above {@link Words#LARGE_CLUSTER_ENDPOINTS} endpoints. */
    static boolean large(int endpoints) {
        return endpoints > Words.LARGE_CLUSTER_ENDPOINTS;
    }
}
