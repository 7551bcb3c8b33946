package io.kproxy.netlink;

import java.net.InetAddress;

/**
 * An IPVS real server of a virtual service ({@code IPVS_DEST_ATTR_*}, include/uapi/linux/ip_vs.h).
 * The connection counts are what the kernel reports; they are ignored when writing.
 *
 * @param address the real server's address (the service's family)
 * @param port 0..65535
 * @param forward the forwarding method
 * @param weight 0 (no new connections: graceful termination) or more
 * @param upperThreshold 0 (none), or the connection count above which it gets no new connections
 * @param lowerThreshold 0 (none), or the count below which it gets them again
 * @param activeConnections reported by the kernel
 * @param inactiveConnections reported by the kernel
 */
public record IpvsDestination(InetAddress address, int port, IpvsForward forward, int weight, int upperThreshold, int lowerThreshold,
        int activeConnections, int inactiveConnections) {

    public IpvsDestination {
        if (address == null || forward == null) {
            throw new IllegalArgumentException("address and forwarding method are required");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        if (weight < 0 || upperThreshold < 0 || lowerThreshold < 0 || activeConnections < 0 || inactiveConnections < 0) {
            throw new IllegalArgumentException("weight, thresholds and counts are never negative");
        }
    }

    /** A masqueraded real server with {@code weight}. */
    public static IpvsDestination masquerade(InetAddress address, int port, int weight) {
        return new IpvsDestination(address, port, IpvsForward.MASQUERADE, weight, 0, 0, 0, 0);
    }

    public IpvsDestination withWeight(int w) {
        return new IpvsDestination(address, port, forward, w, upperThreshold, lowerThreshold, activeConnections, inactiveConnections);
    }

    /** {@code 10.0.1.11:8080}, for logs and errors. */
    public String key() {
        return IpvsEncoding.hostPort(address, port);
    }
}
