package io.kproxy.engine;

import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import java.util.Collection;

/**
 * Upstream's {@code serviceNoLocalEndpointsTotalInternal/External} counts
 * ({@code pkg/proxy/nftables/proxier.go}, set after each sync): per family, the service ports
 * with a Local traffic policy whose endpoints exist but none on this node. Kept incrementally:
 * a sync adjusts the counts for the ports its delta names, so it costs O(change), not
 * O(service ports). Confined to the sync thread.
 */
final class NoLocalEndpoints {

    private final long[] internal = new long[IpFamily.values().length];
    private final long[] external = new long[IpFamily.values().length];

    /**
     * Moves the counts from {@code before} to {@code after}, which differ at most in the ports
     * named by {@code changed} (a {@code StateDelta}'s changed ports; it may name more).
     */
    void update(NodeState before, NodeState after, Collection<ServicePortName> changed) {
        for (IpFamily f : IpFamily.values()) {
            var was = before.family(f).ports();
            var is = after.family(f).ports();
            for (ServicePortName name : changed) {
                count(f, was.get(name), -1);
                count(f, is.get(name), 1);
            }
        }
    }

    private void count(IpFamily f, ServicePortState p, int sign) {
        if (p != null && p.hasEndpoints() && p.localEndpoints().isEmpty()) {
            internal[f.ordinal()] += p.internalPolicyLocal() ? sign : 0;
            external[f.ordinal()] += p.externalPolicyLocal() ? sign : 0;
        }
    }

    long internal(IpFamily f) {
        return internal[f.ordinal()];
    }

    long external(IpFamily f) {
        return external[f.ordinal()];
    }

    /** The counts of {@code state}, from scratch (what {@link #update} keeps). */
    static NoLocalEndpoints of(NodeState state) {
        NoLocalEndpoints n = new NoLocalEndpoints();
        for (IpFamily f : IpFamily.values()) {
            for (ServicePortState p : state.family(f).ports().values()) {
                n.count(f, p, 1);
            }
        }
        return n;
    }
}
