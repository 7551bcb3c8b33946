package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import java.util.List;

/**
 * What the fold keeps of one Service: the parsed, validated facts kube-proxy reads
 * ({@code pkg/proxy/serviceport.go} newBaseServiceInfo, {@code pkg/api/v1/service/util.go}),
 * not the object. Service-level decisions ({@code ExternalPolicyLocal}, {@code NeedsHealthCheck},
 * the affinity timeout) are already taken; per-family filtering happens in the projection.
 *
 * @param skipReason  why the service gets no rules at all ("" when it is proxied): headless,
 *                    ExternalName, a proxy-name label, an unparseable cluster IP
 * @param clusterIPs  at most one per family, in {@code spec.ipFamilies} order
 * @param ports       the usable ports, unique by (name, protocol); later duplicates win
 * @param loadBalancerVIPs ingress IPs whose {@code ipMode} is unset or {@code VIP}
 * @param healthCheckNodePort non-zero only when upstream's {@code NeedsHealthCheck} holds
 * @param affinityTimeoutSeconds ClientIP affinity timeout, 0 without affinity
 */
record ServiceSpec(ServiceRef ref, Origin origin, String skipReason, List<IpAddress> clusterIPs, List<PortSpec> ports,
        List<IpAddress> externalIPs, List<IpAddress> loadBalancerVIPs, List<Cidr> sourceRanges, boolean externalPolicyLocal,
        boolean internalPolicyLocal, int healthCheckNodePort, int affinityTimeoutSeconds) {

    ServiceSpec {
        if (ref == null || origin == null || skipReason == null) {
            throw new IllegalArgumentException("ref, origin and skipReason are required");
        }
        clusterIPs = List.copyOf(clusterIPs);
        ports = List.copyOf(ports);
        externalIPs = List.copyOf(externalIPs);
        loadBalancerVIPs = List.copyOf(loadBalancerVIPs);
        sourceRanges = List.copyOf(sourceRanges);
        if (healthCheckNodePort < 0 || healthCheckNodePort > 65535 || affinityTimeoutSeconds < 0) {
            throw new IllegalArgumentException("healthCheckNodePort or affinity timeout out of range");
        }
    }

    /** A service that gets no rules, for {@code reason}. */
    static ServiceSpec skipped(ServiceRef ref, Origin origin, String reason) {
        return new ServiceSpec(ref, origin, reason, List.of(), List.of(), List.of(), List.of(), List.of(), false, false, 0, 0);
    }

    boolean isSkipped() {
        return !skipReason.isEmpty();
    }

    /** The cluster IP of {@code family}, or null when the service has none (upstream's GetClusterIPByFamily = ""). */
    IpAddress clusterIP(IpFamily family) {
        for (IpAddress ip : clusterIPs) {
            if (ip.family() == family) {
                return ip;
            }
        }
        return null;
    }

    /** One {@code spec.ports[]} entry. {@code nodePort} is 0 for none. */
    record PortSpec(String name, Protocol protocol, Port port, int nodePort) {
        PortSpec {
            if (name == null || protocol == null || port == null || nodePort < 0 || nodePort > 65535) {
                throw new IllegalArgumentException("invalid port spec");
            }
        }

        ServicePortName key(ServiceRef service) {
            return new ServicePortName(service, name, protocol);
        }
    }
}
