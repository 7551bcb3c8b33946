package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.SliceSpec.SliceEndpoint;
import io.kproxy.state.SliceSpec.SlicePort;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Projects one Service and its slices onto one IP family: upstream's per-family
 * {@code serviceToServiceMap} ({@code pkg/proxy/servicechangetracker.go}), newBaseServiceInfo
 * ({@code pkg/proxy/serviceport.go}), the slice merge ({@code pkg/proxy/endpointslicecache.go})
 * and {@code CategorizeEndpoints} ({@code pkg/proxy/topology.go}). Pure.
 */
final class Projection {

    private Projection() {
    }

    /** The service-port keys {@code service} has in {@code family}; depends on the service alone. */
    static List<ServicePortName> keys(ServiceSpec service, IpFamily family) {
        if (service == null || service.isSkipped() || service.clusterIP(family) == null) {
            return List.of();
        }
        List<ServicePortName> keys = new ArrayList<>(service.ports().size());
        for (ServiceSpec.PortSpec p : service.ports()) {
            keys.add(p.key(service.ref()));
        }
        return keys;
    }

    /** Emits every entry of {@code service} in {@code family}; nothing for a skipped service or one without an IP of the family. */
    static void project(ServiceSpec service, PersistentMap<EndpointSliceRef, SliceSpec> slices, String nodeName, String zone,
            IpFamily family, BiConsumer<ServicePortName, ServicePortState> out) {
        if (service.isSkipped()) {
            return;
        }
        IpAddress clusterIP = service.clusterIP(family);
        if (clusterIP == null) {
            return;
        }
        List<IpAddress> externalIPs = ofFamily(service.externalIPs(), family);
        List<IpAddress> lbVIPs = ofFamily(service.loadBalancerVIPs(), family);
        List<Cidr> sourceRanges = new ArrayList<>(service.sourceRanges().size());
        for (Cidr c : service.sourceRanges()) {
            if (c.family() == family) {
                sourceRanges.add(c);
            }
        }
        sourceRanges = List.copyOf(sourceRanges);
        for (ServiceSpec.PortSpec port : service.ports()) {
            ServicePortName key = port.key(service.ref());
            List<Endpoint> endpoints = merge(slices, family, port.name(), port.protocol(), nodeName);
            // BaseServicePortInfo.ExternallyAccessible / UsesClusterEndpoints / UsesLocalEndpoints.
            boolean externallyAccessible = port.nodePort() != 0 || !lbVIPs.isEmpty() || !externalIPs.isEmpty();
            boolean usesCluster = !service.internalPolicyLocal() || externallyAccessible;
            boolean usesLocal = service.internalPolicyLocal() || (service.externalPolicyLocal() && externallyAccessible);
            Topology.Categorized c = Topology.categorize(endpoints, usesCluster, usesLocal, nodeName, zone);
            out.accept(key, new ServicePortState(key, clusterIP, port.port(), port.nodePort(), externalIPs, lbVIPs, sourceRanges,
                    service.externalPolicyLocal(), service.internalPolicyLocal(), service.healthCheckNodePort(),
                    service.affinityTimeoutSeconds(), endpoints, c.cluster(), c.local(), c.hasAny(), usesCluster, usesLocal));
        }
    }

    /**
     * Every endpoint of {@code family} for the slice ports named {@code portName}/{@code protocol},
     * de-duplicated by {@code ip:port} (the first wins unless a later one is local, as upstream's
     * addEndpoints) and sorted by that text. Slices are visited in name order and endpoints in
     * address order, so that duplicates resolve the same way on every replay (upstream iterates
     * a Go map here).
     */
    static List<Endpoint> merge(PersistentMap<EndpointSliceRef, SliceSpec> slices, IpFamily family, String portName, Protocol protocol,
            String nodeName) {
        TreeMap<String, Endpoint> byHostPort = null;
        for (SliceSpec slice : slices.values()) {
            if (!slice.addressType().is(family)) {
                continue;
            }
            for (SlicePort sp : slice.ports()) {
                if (sp.protocol() != protocol || !sp.name().equals(portName)) {
                    continue;
                }
                for (SliceEndpoint e : slice.endpoints()) {
                    boolean local = !nodeName.isEmpty() && nodeName.equals(e.nodeName());
                    Endpoint ep = new Endpoint(e.ip(), sp.port(), local, e.ready(), e.serving(), e.terminating(), e.nodeName(), e.zoneHints(),
                            e.nodeHints());
                    if (byHostPort == null) {
                        byHostPort = new TreeMap<>();
                    }
                    String k = ep.hostPort();
                    if (local || !byHostPort.containsKey(k)) {
                        byHostPort.put(k, ep);
                    }
                }
            }
        }
        return byHostPort == null ? List.of() : List.copyOf(byHostPort.values());
    }

    private static List<IpAddress> ofFamily(List<IpAddress> ips, IpFamily family) {
        if (ips.isEmpty()) {
            return List.of();
        }
        List<IpAddress> out = new ArrayList<>(ips.size());
        for (IpAddress ip : ips) {
            if (ip.family() == family) {
                out.add(ip);
            }
        }
        return List.copyOf(out);
    }
}
