package io.kproxy.sample.simulator;

/**
 * A pod behind a sample Service, as its EndpointSlice endpoint shows it. Immutable.
 *
 * @param name        the pod's name
 * @param node        the node it runs on
 * @param ipv4        its IPv4 address
 * @param ipv6        its IPv6 address
 * @param ready       {@code conditions.ready}
 * @param serving     {@code conditions.serving}
 * @param terminating {@code conditions.terminating}
 */
record Pod(String name, String node, String ipv4, String ipv6, boolean ready, boolean serving, boolean terminating) {

    /** A pod that has started but does not pass its readiness probe yet. */
    static Pod starting(String name, String node, String ipv4, String ipv6) {
        return new Pod(name, node, ipv4, ipv6, false, false, false);
    }

    Pod asReady() {
        return new Pod(name, node, ipv4, ipv6, true, true, false);
    }

    /** Failing its readiness probe (not ready, not serving), not terminating. */
    Pod asUnready() {
        return new Pod(name, node, ipv4, ipv6, false, false, false);
    }

    /** Being deleted: not ready, still serving during its grace period. */
    Pod asTerminating() {
        return new Pod(name, node, ipv4, ipv6, false, true, true);
    }
}
