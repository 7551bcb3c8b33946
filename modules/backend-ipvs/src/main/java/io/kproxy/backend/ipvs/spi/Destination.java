package io.kproxy.backend.ipvs.spi;

/**
 * A real server as the kernel lists it, with its connection counts (what upstream's graceful
 * termination reads, {@code pkg/proxy/ipvs/graceful_termination.go}). Immutable.
 *
 * @param server              the destination
 * @param activeConnections   {@code IPVS_DEST_ATTR_ACTIVE_CONNS}
 * @param inactiveConnections {@code IPVS_DEST_ATTR_INACT_CONNS}
 */
public record Destination(RealServer server, int activeConnections, int inactiveConnections) {

    public Destination {
        if (server == null || activeConnections < 0 || inactiveConnections < 0) {
            throw new IllegalArgumentException("server is required and counts are not negative");
        }
    }

    /** No connection of either kind: a drained destination may go. */
    public boolean idle() {
        return activeConnections + inactiveConnections == 0;
    }
}
