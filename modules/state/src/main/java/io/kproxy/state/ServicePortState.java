package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Port;
import io.kproxy.model.ServicePortName;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What one IP family of this node must do for one service port: upstream's {@code ServicePort}
 * ({@code pkg/proxy/serviceport.go}) joined with the result of {@code CategorizeEndpoints}
 * ({@code pkg/proxy/topology.go}). Every address and endpoint here is of the family this entry
 * belongs to. Immutable; no null components; "none" is {@code 0} for ports and an empty list
 * for lists.
 *
 * @param name                     service port identity
 * @param clusterIP                the service's cluster IP of this family
 * @param port                     the service port
 * @param nodePort                 the NodePort, or 0
 * @param externalIPs              {@code spec.externalIPs} of this family, normalised
 * @param loadBalancerIPs          {@code status.loadBalancer.ingress[].ip} of this family whose
 *                                 {@code ipMode} is unset or {@code VIP}
 * @param loadBalancerSourceRanges {@code spec.loadBalancerSourceRanges} of this family
 * @param externalPolicyLocal      externally accessible and {@code externalTrafficPolicy: Local}
 * @param internalPolicyLocal      {@code internalTrafficPolicy: Local}
 * @param healthCheckNodePort      the health-check node port (LoadBalancer with ETP Local), or 0
 * @param affinityTimeoutSeconds   ClientIP session affinity timeout, or 0 for no affinity
 * @param endpoints                every endpoint of this family for this port, merged and
 *                                 de-duplicated, sorted by {@link Endpoint#hostPort()} as text
 * @param clusterEndpoints         endpoints for cluster-policy traffic (empty when the port does
 *                                 not use them), after topology and terminating fallback
 * @param localEndpoints           endpoints for local-policy traffic (empty when not used)
 * @param hasEndpoints             some endpoint anywhere is usable (ready, or serving and
 *                                 terminating); decides REJECT (none) versus DROP (policy)
 * @param usesClusterEndpoints     upstream's {@code UsesClusterEndpoints}
 * @param usesLocalEndpoints       upstream's {@code UsesLocalEndpoints}
 */
public record ServicePortState(
        ServicePortName name,
        IpAddress clusterIP,
        Port port,
        int nodePort,
        List<IpAddress> externalIPs,
        List<IpAddress> loadBalancerIPs,
        List<Cidr> loadBalancerSourceRanges,
        boolean externalPolicyLocal,
        boolean internalPolicyLocal,
        int healthCheckNodePort,
        int affinityTimeoutSeconds,
        List<Endpoint> endpoints,
        List<Endpoint> clusterEndpoints,
        List<Endpoint> localEndpoints,
        boolean hasEndpoints,
        boolean usesClusterEndpoints,
        boolean usesLocalEndpoints) {

    public ServicePortState {
        if (name == null || clusterIP == null || port == null) {
            throw new IllegalArgumentException("name, clusterIP and port are required");
        }
        if (nodePort < 0 || nodePort > 65535 || healthCheckNodePort < 0 || healthCheckNodePort > 65535) {
            throw new IllegalArgumentException("node ports must be 0 (none) or 1..65535");
        }
        if (affinityTimeoutSeconds < 0) {
            throw new IllegalArgumentException("affinityTimeoutSeconds must not be negative");
        }
        externalIPs = List.copyOf(externalIPs);
        loadBalancerIPs = List.copyOf(loadBalancerIPs);
        loadBalancerSourceRanges = List.copyOf(loadBalancerSourceRanges);
        endpoints = List.copyOf(endpoints);
        clusterEndpoints = List.copyOf(clusterEndpoints);
        localEndpoints = List.copyOf(localEndpoints);
    }

    /** NodePort, LoadBalancer IPs or external IPs: the port receives external traffic. */
    public boolean externallyAccessible() {
        return nodePort != 0 || !loadBalancerIPs.isEmpty() || !externalIPs.isEmpty();
    }

    /** Endpoints reachable from this node under either policy (upstream's {@code allLocallyReachableEndpoints}). */
    public List<Endpoint> reachableEndpoints() {
        if (localEndpoints.isEmpty()) {
            return clusterEndpoints;
        }
        if (clusterEndpoints.isEmpty()) {
            return localEndpoints;
        }
        LinkedHashSet<Endpoint> all = new LinkedHashSet<>(clusterEndpoints);
        all.addAll(localEndpoints);
        return all.stream().sorted(Comparator.comparing(Endpoint::hostPort)).toList();
    }
}
