package io.kproxy.bench.agent;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;

/**
 * The benchmark's cluster, deterministic: {@code n} ClusterIP Services (one TCP port) in 100
 * namespaces, each with one EndpointSlice of 5 ready endpoints spread over 50 nodes, the shape of
 * docs/kernel-floor.md and the nftables benchmark. Cluster IPs come from 172.30.0.0/16 (and the
 * next /16s past 64,000 Services: {@link #clusterIp}), endpoints
 * from 10.0.0.0/8; node {@value #NODE} is one of the 50, so some endpoints are local. Public for
 * the other benchmarks that measure one such object ({@code FingerprintBenchmark}).
 */
public final class SyntheticObjects {

    static final String NODE = "node-0";

    private SyntheticObjects() {
    }

    static String namespace(int i) {
        return "ns-" + (i % 100);
    }

    static String name(int i) {
        return "svc-" + i;
    }

    public static Service service(int i) {
        String ip = clusterIp(i);
        return new ServiceBuilder().withNewMetadata().withNamespace(namespace(i)).withName(name(i)).endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP(ip).withClusterIPs(ip)
                .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort().endSpec().build();
    }

    /**
     * Service {@code i}'s cluster IP: 172.30.0.0/16 up to 64,000 Services (250 per third octet),
     * then on into 172.31.0.0/16 and beyond, as {@code FirstSyncCost} numbers them, so that
     * 100,000 Services get valid, distinct addresses.
     */
    static String clusterIp(int i) {
        if (i < 0 || i >= 14_000_000) {
            throw new IllegalArgumentException("service index out of range: " + i);
        }
        int ip = (172 << 24) + (30 << 16) + ((i / 250) << 8) + (i % 250 + 1);
        return (ip >>> 24) + "." + ((ip >> 16) & 0xFF) + "." + ((ip >> 8) & 0xFF) + "." + (ip & 0xFF);
    }

    /** The slice of service {@code i}; {@code generation} shifts one endpoint, so each generation is a real change. */
    public static EndpointSlice slice(int i, int generation, String triggerTime) {
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withNamespace(namespace(i)).withName(name(i) + "-1")
                .addToLabels("kubernetes.io/service-name", name(i))
                .addToAnnotations("endpoints.kubernetes.io/last-change-trigger-time", triggerTime).endMetadata()
                .withAddressType("IPv4").addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort();
        for (int e = 0; e < 5; e++) {
            int host = i * 5 + e + (e == 0 ? generation * 7 : 0);
            String ip = "10." + ((host >> 16) & 0xFF) + "." + ((host >> 8) & 0xFF) + "." + (host & 0xFF);
            b.addToEndpoints(new EndpointBuilder().withAddresses(ip).withNodeName("node-" + ((i + e) % 50)).withNewConditions()
                    .withReady(true).endConditions().build());
        }
        return b.build();
    }

    /**
     * The {@code default/kubernetes} Service every API server keeps for itself (the first address
     * of the range, port 443, no EndpointSlice here): a restarted agent resumes its watches only
     * where this Service's uid is the one its journal holds (docs/operations.md, "Restart").
     */
    static Service apiService() {
        return new ServiceBuilder().withNewMetadata().withNamespace("default").withName("kubernetes").endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP("172.30.0.1").withClusterIPs("172.30.0.1")
                .addNewPort().withName("https").withPort(443).withProtocol("TCP").endPort().endSpec().build();
    }

    static Node node() {
        return new NodeBuilder().withNewMetadata().withName(NODE).endMetadata().withNewStatus().addNewAddress().withType("InternalIP")
                .withAddress("192.168.0.2").endAddress().endStatus().build();
    }
}
