package io.kproxy.state;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServiceRef;
import java.util.List;
import java.util.Set;

/**
 * What the fold keeps of one EndpointSlice: upstream's {@code endpointSliceInfo}
 * ({@code pkg/proxy/endpointslicecache.go}), the attributes kube-proxy reads and nothing else.
 * Whether an endpoint is local depends on the configured node name, so it is decided in the
 * projection, not here.
 *
 * @param service     the owning service, from label {@code kubernetes.io/service-name}
 * @param addressType the slice's address type; {@link AddressType#OTHER} (FQDN or unknown) slices
 *                    keep no ports or endpoints
 * @param ports       usable ports (named, numbered), sorted by number like upstream's byPort
 * @param endpoints   usable endpoints, sorted by their address text like upstream's byAddress
 */
record SliceSpec(EndpointSliceRef ref, Origin origin, ServiceRef service, AddressType addressType, List<SlicePort> ports,
        List<SliceEndpoint> endpoints) {

    SliceSpec {
        if (ref == null || origin == null || service == null || addressType == null) {
            throw new IllegalArgumentException("ref, origin, service and addressType are required");
        }
        ports = List.copyOf(ports);
        endpoints = List.copyOf(endpoints);
    }

    /** {@code addressType}: the two kube-proxy supports, or anything else (ignored). */
    enum AddressType {
        IPV4,
        IPV6,
        OTHER;

        boolean is(IpFamily family) {
            return this == (family == IpFamily.IPV4 ? IPV4 : IPV6);
        }
    }

    /** One usable slice port: a name ("" for unnamed) and a number. */
    record SlicePort(String name, Protocol protocol, Port port) {
        SlicePort {
            if (name == null || protocol == null || port == null) {
                throw new IllegalArgumentException("name, protocol and port are required");
            }
        }
    }

    /**
     * One usable slice endpoint. Conditions as upstream reads them: {@code ready} and
     * {@code serving} default to true, {@code terminating} to false.
     *
     * @param nodeName {@code nodeName}, or "" when absent
     */
    record SliceEndpoint(IpAddress ip, boolean ready, boolean serving, boolean terminating, String nodeName, Set<String> zoneHints,
            Set<String> nodeHints) {
        SliceEndpoint {
            if (ip == null || nodeName == null) {
                throw new IllegalArgumentException("ip and nodeName are required");
            }
            zoneHints = Set.copyOf(zoneHints);
            nodeHints = Set.copyOf(nodeHints);
        }
    }
}
