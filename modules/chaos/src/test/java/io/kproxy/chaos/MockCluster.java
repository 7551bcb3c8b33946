package io.kproxy.chaos;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cluster: what exists ({@link #truth}, the runner's record) and fabric8's mock API server in
 * CRUD mode that serves it. While the server is up every change goes to both; while it is down
 * ({@link #stop()}) changes go to the record only and {@link #start()} loads the record into a
 * fresh server: an API server restarted with data changed meanwhile. {@link #dump} writes the
 * record as object files for {@code kproxy render --objects}. Not thread-safe: the runner's
 * schedule thread is its only user.
 */
final class MockCluster implements AutoCloseable {

    static final String NS = "chaos";

    private final Map<String, HasMetadata> truth = new TreeMap<>();
    private KubernetesMockServer server;
    private volatile KubernetesClient client;
    private final Map<String, Long> lastChange = new ConcurrentHashMap<>();

    /** Starts a server holding the record; returns where it listens (the runner's loopback). */
    InetSocketAddress start() {
        MockWebServer web = new MockWebServer();
        server = new KubernetesMockServer(web, new HashMap<>(), false);
        web.setDispatcher(new MockDispatcher());
        server.start(InetAddress.getLoopbackAddress(), 0);
        Config config = Config.empty();
        config.setMasterUrl("http://127.0.0.1:" + server.getPort());
        client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
        for (HasMetadata o : truth.values()) {
            write(o);
        }
        // Every resource "changed" at the restart: the watchers' versions are from another server.
        long newest = newestIssued();
        for (String r : List.of("services", "endpointslices", "nodes", "servicecidrs")) {
            lastChange.put(r, newest);
        }
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getPort());
    }

    /** Stops the server; the record stays and keeps taking changes. */
    void stop() {
        if (client != null) {
            client.close();
            server.shutdown();
            client = null;
            server = null;
        }
    }

    boolean up() {
        return client != null;
    }

    void apply(HasMetadata o) {
        truth.put(key(o), o);
        if (up()) {
            changing(o, () -> write(o));
        }
    }

    void delete(HasMetadata o) {
        truth.remove(key(o));
        if (up()) {
            changing(o, () -> client.resource(o).delete());
        }
    }

    HasMetadata get(String kind, String name) {
        return truth.get(kind + "/" + name);
    }

    /**
     * Creates or updates {@code o}. fabric8's update reads the object's current version and then
     * writes with it; the mock answered that write 409 Conflict once (the 60-minute soak of seed
     * 20261126, about 275 s in, during an {@code API_DOWN}), which ended the run. A conflict is
     * retried with a fresh read, as client-go's {@code retry.RetryOnConflict} does
     * (k8s.io/client-go/util/retry/util.go), at most {@link #WRITE_ATTEMPTS} times.
     */
    private void write(HasMetadata o) {
        for (int attempt = 1; ; attempt++) {
            HasMetadata copy = Serialization.clone(o);
            copy.getMetadata().setResourceVersion(null);
            try {
                client.resource(copy).createOr(r -> r.update());
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == WRITE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private static final int WRITE_ATTEMPTS = 5;

    /** The newest resourceVersion the running server issued (its lists carry it), or -1 while it is down or does not say. */
    private long newestIssued() {
        KubernetesClient c = client;
        if (c == null) {
            return -1;
        }
        try {
            String rv = c.configMaps().inNamespace(NS).list().getMetadata().getResourceVersion();
            return rv != null && rv.matches("[0-9]{1,18}") ? Long.parseLong(rv) : -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Whether the mock serves a watch of {@code requestLine}'s resource from {@code rv} as an API
     * server would: nothing of that resource changed after {@code rv} (the mock would not replay
     * it) and the server issued {@code rv} (a restarted one did not). Called by the proxy's threads.
     */
    boolean servesWatch(String requestLine, long rv) {
        String path = requestLine.split("[ ?]")[1];
        long changed = lastChange.getOrDefault(path.substring(path.lastIndexOf('/') + 1), 0L);
        long newest = newestIssued();
        return newest < 0 || (rv >= changed && rv <= newest);
    }

    /** Marks {@code o}'s resource as changing (no watch is served until the change has its version), then records that version. */
    private void changing(HasMetadata o, Runnable change) {
        String resource = resource(o);
        lastChange.put(resource, Long.MAX_VALUE);
        change.run();
        lastChange.put(resource, newestIssued());
    }

    private static String resource(HasMetadata o) {
        return switch (o.getKind()) {
            case "Service" -> "services";
            case "EndpointSlice" -> "endpointslices";
            case "Node" -> "nodes";
            default -> o.getKind().toLowerCase(Locale.ROOT) + "s";
        };
    }

    private static String key(HasMetadata o) {
        return o.getKind() + "/" + o.getMetadata().getName();
    }

    /** Writes the record, one YAML file per object, into an empty {@code dir}. */
    void dump(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (var old = Files.list(dir)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        int i = 0;
        for (HasMetadata o : truth.values()) {
            Files.writeString(dir.resolve(String.format("%03d-%s.yaml", i++, o.getKind())), Serialization.asYaml(o));
        }
    }

    /** A ClusterIP Service with TCP port {@code http} 80. */
    static Service service(String name, String clusterIP) {
        return new ServiceBuilder().withNewMetadata().withNamespace(NS).withName(name).endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP(clusterIP).withClusterIPs(clusterIP)
                .addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort().endSpec().build();
    }

    /** The one slice of {@code service}: ready endpoints at 8080 on the given pods. */
    static EndpointSlice slice(String service, List<Pod> pods) {
        EndpointSliceBuilder b = new EndpointSliceBuilder().withNewMetadata().withNamespace(NS).withName(service + "-1")
                .addToLabels("kubernetes.io/service-name", service)
                .addToAnnotations("endpoints.kubernetes.io/last-change-trigger-time", Instant.now().toString()).endMetadata()
                .withAddressType("IPv4").addNewPort().withName("http").withPort(8080).withProtocol("TCP").endPort();
        List<Pod> sorted = new ArrayList<>(pods);
        sorted.sort(null);
        for (Pod p : sorted) {
            b.addToEndpoints(new EndpointBuilder().withAddresses(p.ip()).withNodeName(p.node()).withNewConditions().withReady(true)
                    .endConditions().build());
        }
        return b.build();
    }

    static Node node(String name, String internalIP, int generation) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("chaos.kproxy.io/generation", Integer.toString(generation))
                .endMetadata().withNewStatus().addNewAddress().withType("InternalIP").withAddress(internalIP).endAddress().endStatus().build();
    }

    @Override
    public void close() {
        stop();
    }
}
