package io.kproxy.engine;

import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;

/**
 * Upstream's {@code serviceNoLocalEndpointsTotalInternal/External} counts
 * ({@code pkg/proxy/nftables/proxier.go}, set after each sync): per family, the service ports
 * with a Local traffic policy whose endpoints exist but none on this node. Kept incrementally:
 * a sync adjusts the counts for the ports that differ between the state it programmed and the
 * one before, so it costs O(change), not O(service ports). Confined to the sync thread.
 */
final class NoLocalEndpoints {

    private final long[] internal = new long[IpFamily.values().length];
    private final long[] external = new long[IpFamily.values().length];

    /**
     * Moves the counts from {@code before} (the state of the previous update, or the empty state)
     * to {@code after}: only the entries the two states' port maps do not share are visited
     * ({@link PersistentMap#diff}), with their old and new values, so a sync costs O(change) and
     * the first one O(ports) without a lookup per port.
     */
    void update(NodeState before, NodeState after) {
        for (IpFamily f : IpFamily.values()) {
            before.family(f).ports().diff(after.family(f).ports(), new PersistentMap.DiffVisitor<>() {
                @Override
                public void added(ServicePortName key, ServicePortState value) {
                    count(f, value, 1);
                }

                @Override
                public void removed(ServicePortName key, ServicePortState value) {
                    count(f, value, -1);
                }

                @Override
                public void changed(ServicePortName key, ServicePortState was, ServicePortState is) {
                    count(f, was, -1);
                    count(f, is, 1);
                }
            });
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
