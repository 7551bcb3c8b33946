package io.kproxy.backend.testkit;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;

import io.kproxy.state.ServicePortState;
import java.util.List;

/**
 * The services of upstream's {@code TestOverallIPTablesRules} ({@code pkg/proxy/iptables/proxier_test.go})
 * and {@code TestOverallNFTablesRules} ({@code pkg/proxy/nftables/proxier_test.go}, commit 030880a5),
 * which are the same; svc2's health-check node port matters to iptables only.
 */
public final class UpstreamScenarios {

    private UpstreamScenarios() {
    }

    public static List<ServicePortState> overall() {
        return List.of(
                port("ns1", "svc1", "p80", "172.30.0.41", 80).with(p -> {
                    p.endpoints.add(ep("10.180.0.1", 80, false));
                    return p;
                }).build(),
                // LoadBalancer, ETP Local, health check node port; its only endpoint is not on this node.
                port("ns2", "svc2", "p80", "172.30.0.42", 80).with(p -> {
                    p.nodePort = 3001;
                    p.lbIPs.add("1.2.3.4");
                    p.externalIPs.add("192.168.99.22");
                    p.etpLocal = true;
                    p.healthCheckNodePort = 30000;
                    p.endpoints.add(ep("10.180.0.2", 80, false));
                    return p;
                }).build(),
                port("ns3", "svc3", "p80", "172.30.0.43", 80).with(p -> {
                    p.nodePort = 3003;
                    p.endpoints.add(ep("10.180.0.3", 80, false));
                    return p;
                }).build(),
                // Type NodePort without a nodePort, with an external IP; one local endpoint.
                port("ns4", "svc4", "p80", "172.30.0.44", 80).with(p -> {
                    p.externalIPs.add("192.168.99.33");
                    p.endpoints.add(ep("10.180.0.4", 80, false));
                    p.endpoints.add(ep("10.180.0.5", 80, true));
                    return p;
                }).build(),
                // LoadBalancer, ETP Cluster, source range, session affinity (its health check
                // node port is dropped: only ETP Local services have one).
                port("ns5", "svc5", "p80", "172.30.0.45", 80).with(p -> {
                    p.nodePort = 3002;
                    p.lbIPs.add("5.6.7.8");
                    p.sourceRanges.add("203.0.113.0/25");
                    p.affinity = 10800;
                    p.endpoints.add(ep("10.180.0.3", 80, false));
                    return p;
                }).build(),
                port("ns6", "svc6", "p80", "172.30.0.46", 80).build());
    }
}
