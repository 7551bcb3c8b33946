package io.kproxy.sample.simulator;

import java.util.List;

/**
 * One Service of the sample cluster as its owner declared it. Immutable.
 *
 * @param namespace           namespace
 * @param name                name (also the pods' {@code app} label)
 * @param type                {@code ClusterIP}, {@code NodePort} or {@code LoadBalancer}
 * @param headless            {@code clusterIP: None} (kube-proxy skips it)
 * @param clusterIPv4         the IPv4 cluster IP ("" when headless)
 * @param clusterIPv6         the IPv6 cluster IP, "" unless dual-stack
 * @param ports               the ports
 * @param loadBalancerIP      the ingress IP a LoadBalancer got, or ""
 * @param externalLocal       {@code externalTrafficPolicy: Local}
 * @param healthCheckNodePort the health-check node port of an ETP-Local LoadBalancer, or 0
 * @param affinitySeconds     ClientIP session affinity timeout, 0 for none
 */
record ServiceDef(String namespace, String name, String type, boolean headless, String clusterIPv4, String clusterIPv6, List<PortDef> ports,
        String loadBalancerIP, boolean externalLocal, int healthCheckNodePort, int affinitySeconds) {

    /** A service port; {@code nodePort} 0 for none. */
    record PortDef(String name, String protocol, int port, int targetPort, int nodePort) {
    }

    ServiceDef {
        ports = List.copyOf(ports);
    }

    boolean dualStack() {
        return !clusterIPv6.isEmpty();
    }

    boolean externallyReachable() {
        return type.equals("NodePort") || type.equals("LoadBalancer");
    }

    String key() {
        return namespace + "/" + name;
    }

    /** The same Service with every port's target port set to {@code targetPort} (an edit of the Service). */
    ServiceDef withTargetPort(int targetPort) {
        return new ServiceDef(namespace, name, type, headless, clusterIPv4, clusterIPv6,
                ports.stream().map(p -> new PortDef(p.name(), p.protocol(), p.port(), targetPort, p.nodePort())).toList(), loadBalancerIP,
                externalLocal, healthCheckNodePort, affinitySeconds);
    }
}
