package io.kproxy.app;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;

/**
 * Test-only: fabric8's mock API server in CRUD mode on the host's loopback, a client for the
 * test's changes, and builders for the objects the end-to-end tests use (namespace {@code demo}).
 */
final class MockApi implements AutoCloseable {

    static final String NS = "demo";

    private final KubernetesMockServer server;
    private final KubernetesClient client;

    MockApi() {
        MockWebServer web = new MockWebServer();
        server = new KubernetesMockServer(web, new HashMap<>(), false);
        web.setDispatcher(new KubernetesCrudDispatcher());
        server.start(InetAddress.getLoopbackAddress(), 0);
        Config config = Config.empty();
        config.setMasterUrl("http://127.0.0.1:" + server.getPort());
        client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    int port() {
        return server.getPort();
    }

    KubernetesClient client() {
        return client;
    }

    /** A ClusterIP Service with TCP port {@code http} 80 and UDP port {@code dns} 53. */
    static Service service(String name, String clusterIP) {
        return new ServiceBuilder().withNewMetadata().withNamespace(NS).withName(name).endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP(clusterIP).withClusterIPs(clusterIP)
                .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort()
                .addNewPort().withName("dns").withPort(53).withProtocol("UDP").endPort()
                .endSpec().build();
    }

    /** The slice of {@code service}: ready endpoints at {@code ips} (node names as given), 8080/TCP and 5353/UDP. */
    static EndpointSlice slice(String service, List<String[]> ipsAndNodes, String triggerTime) {
        return slice(service, ipsAndNodes, triggerTime, 8080);
    }

    /** The slice of {@code service} with its {@code http} port at {@code tcpPort} (a bad edit: 8081, where nothing listens). */
    static EndpointSlice slice(String service, List<String[]> ipsAndNodes, String triggerTime, int tcpPort) {
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withNamespace(NS).withName(service + "-1")
                .addToLabels("kubernetes.io/service-name", service)
                .addToAnnotations("endpoints.kubernetes.io/last-change-trigger-time", triggerTime).endMetadata()
                .withAddressType("IPv4")
                .addNewPort().withName("http").withPort(tcpPort).withProtocol("TCP").endPort()
                .addNewPort().withName("dns").withPort(5353).withProtocol("UDP").endPort();
        for (String[] ipNode : ipsAndNodes) {
            b.addToEndpoints(new EndpointBuilder().withAddresses(ipNode[0]).withNodeName(ipNode[1]).withNewConditions().withReady(true)
                    .endConditions().build());
        }
        return b.build();
    }

    static Node node(String name, String internalIP) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().addNewAddress().withType("InternalIP")
                .withAddress(internalIP).endAddress().endStatus().build();
    }

    void apply(Service s) {
        client.services().inNamespace(NS).resource(s).createOr(r -> r.update());
    }

    void apply(EndpointSlice s) {
        client.discovery().v1().endpointSlices().inNamespace(NS).resource(s).createOr(r -> r.update());
    }

    void apply(Node n) {
        client.nodes().resource(n).create();
    }

    void deleteService(String name) {
        client.services().inNamespace(NS).withName(name).delete();
        client.discovery().v1().endpointSlices().inNamespace(NS).withName(name + "-1").delete();
    }

    @Override
    public void close() {
        client.close();
        server.shutdown();
    }
}
