package io.kproxy.backend.ipvs.spi;

import io.kproxy.model.IpAddress;

/**
 * An IPVS destination of a virtual server (upstream's {@code utilipvs.RealServer}). Immutable; no
 * null components.
 *
 * @param address    the endpoint's address, of the virtual server's family
 * @param port       the endpoint's port
 * @param weight     1 when serving, 0 while it drains (graceful termination)
 * @param forwarding how packets reach it; kproxy uses masquerade
 */
public record RealServer(IpAddress address, int port, int weight, Forwarding forwarding) {

    public RealServer {
        if (address == null || forwarding == null) {
            throw new IllegalArgumentException("address and forwarding are required");
        }
        if (port < 1 || port > 65535 || weight < 0) {
            throw new IllegalArgumentException("port must be 1..65535 and weight not negative");
        }
    }

    /** A masquerading real server with weight 1, as upstream's {@code syncEndpoint} adds them. */
    public static RealServer serving(IpAddress address, int port) {
        return new RealServer(address, port, 1, Forwarding.MASQUERADE);
    }

    /** This destination with another weight. */
    public RealServer withWeight(int w) {
        return new RealServer(address, port, w, forwarding);
    }

    /** {@code ip:port}, IPv6 in brackets. */
    public String hostPort() {
        return VsKey.hostPort(address, port);
    }
}
