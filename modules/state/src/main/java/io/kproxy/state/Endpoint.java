package io.kproxy.state;

import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Port;
import java.util.Set;

/**
 * One endpoint of a service port, merged from the service's EndpointSlices (upstream's
 * {@code BaseEndpointInfo}, {@code pkg/proxy/endpoint.go}).
 *
 * @param ip          the endpoint's address ({@code addresses[0]} of the slice endpoint)
 * @param port        the slice port matching the service port by name and protocol
 * @param local       {@code nodeName} equals this proxy's node
 * @param ready       {@code conditions.ready} is absent or true
 * @param serving     {@code conditions.serving} is absent or true
 * @param terminating {@code conditions.terminating} is true
 * @param nodeName    the endpoint's node, or "" when the slice does not say
 * @param zoneHints   {@code hints.forZones[].name}; empty when none
 * @param nodeHints   {@code hints.forNodes[].name}; empty when none
 */
public record Endpoint(IpAddress ip, Port port, boolean local, boolean ready, boolean serving, boolean terminating, String nodeName,
        Set<String> zoneHints, Set<String> nodeHints) {

    public Endpoint {
        if (ip == null || port == null || nodeName == null) {
            throw new IllegalArgumentException("ip, port and nodeName are required");
        }
        zoneHints = Set.copyOf(zoneHints);
        nodeHints = Set.copyOf(nodeHints);
    }

    public IpFamily family() {
        return ip.family();
    }

    /** {@code ip:port}, IPv6 in brackets: Go's {@code net.JoinHostPort}, upstream's endpoint string. */
    public String hostPort() {
        return ip.isIpv6() ? "[" + ip + "]:" + port : ip + ":" + port;
    }
}
