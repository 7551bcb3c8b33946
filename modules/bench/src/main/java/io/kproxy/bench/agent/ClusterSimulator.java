package io.kproxy.bench.agent;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The cluster side of {@link AgentScaleBench}, run as its own process inside the benchmark's
 * network namespace ({@code ip netns exec}), so that the agent reaches it on loopback: fabric8's
 * CRUD mock API server on 127.0.0.1:{@code port}, loaded with {@link SyntheticObjects}. It prints
 * {@code READY} once loaded and warm (the agent's three lists served through HTTP three times,
 * each round's time printed as a {@code warm-up} line, and changes sent through the update and
 * watch paths on an object the agent does not watch); a watch from a list's version gets only
 * later changes, as from a real API server ({@link WatchFromVersionDispatcher}); on {@code GO} (standard input) it changes
 * one EndpointSlice at a time at {@code rate} per second, {@code changes} times, each stamped with
 * its {@code last-change-trigger-time}, and prints {@code DONE} (again on each later {@code GO}); it exits when
 * standard input closes.
 *
 * <p>Usage: {@code ClusterSimulator <services> <port> <changes> <rate>}.
 */
public final class ClusterSimulator {

    /** The agent's list query (KindSpec): without the service-proxy-name and headless labels, pages of 500. */
    private static final String AGENT_SELECTOR =
            "labelSelector=%21service.kubernetes.io%2Fservice-proxy-name%2C%21service.kubernetes.io%2Fheadless&limit=500";

    /** Changes sent through the mock's update and watch paths before READY ({@link #warmWatchPath}). */
    private static final int WARM_CHANGES = 200;

    private ClusterSimulator() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int port = Integer.parseInt(args[1]);
        int changes = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        MockWebServer web = new MockWebServer();
        KubernetesMockServer server = new KubernetesMockServer(web, new HashMap<>(), false);
        WatchFromVersionDispatcher crud = new WatchFromVersionDispatcher();
        web.setDispatcher(crud);
        server.start(InetAddress.getLoopbackAddress(), port);
        Config config = Config.empty();
        config.setMasterUrl("http://127.0.0.1:" + port);
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory())
                .build()) {
            String[] versions = load(crud, n);
            warm(port);
            Watch warmWatch = warmWatchPath(client);
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            int done = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!"GO".equals(line)) {
                    continue;
                }
                // Each GO is one round of changes; later rounds go on moving the same slices (a restarted agent's turn).
                long periodNanos = 1_000_000_000L / rate;
                long next = System.nanoTime();
                for (int c = done + 1; c <= done + changes; c++) {
                    next += periodNanos;
                    int i = (c * 7919) % n;
                    versions[i] = update(client.discovery().v1().endpointSlices().inNamespace(SyntheticObjects.namespace(i)),
                            SyntheticObjects.slice(i, c, Instant.now().toString()), versions[i]);
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                }
                done += changes;
                System.out.println("DONE");
                System.out.flush();
            }
            warmWatch.close();
        } finally {
            server.shutdown();
        }
    }

    /**
     * Sends {@value #WARM_CHANGES} changes through the mock's update and watch paths before the
     * agent starts, on an EndpointSlice the agent never sees (its own namespace, labelled with
     * {@code service.kubernetes.io/service-proxy-name}, which the agent's selector excludes), and
     * waits until a watch of the simulator's own has seen them all. A real API server's watch path
     * is always warm; without this the benchmark's first changes paid for the mock's JIT (the first
     * three took 395, 206 and 130 ms, the rest 30-90 ms). The watch is returned open, to be closed
     * at the end: closing one holds up the mock's event loop for seconds.
     */
    private static Watch warmWatchPath(KubernetesClient client) throws InterruptedException {
        String ns = "kproxy-bench-warm-up";
        var slices = client.discovery().v1().endpointSlices().inNamespace(ns);
        String current = slices.resource(warmUpSlice(ns, 0)).create().getMetadata().getResourceVersion();
        String version = slices.list().getMetadata().getResourceVersion();
        CountDownLatch seen = new CountDownLatch(WARM_CHANGES);
        Watch watch = slices.watch(new ListOptionsBuilder().withResourceVersion(version).build(), new Watcher<>() {
            @Override
            public void eventReceived(Action action, EndpointSlice resource) {
                if (action == Action.MODIFIED) {
                    seen.countDown();
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                // closed at the end of the run
            }
        });
        long start = System.nanoTime();
        for (int c = 1; c <= WARM_CHANGES; c++) {
            current = update(slices, warmUpSlice(ns, c), current);
        }
        if (!seen.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the warm-up watch saw " + (WARM_CHANGES - seen.getCount()) + " of " + WARM_CHANGES
                    + " changes");
        }
        System.out.printf("warm-up of the update and watch paths: %d changes in %d ms%n", WARM_CHANGES,
                (System.nanoTime() - start) / 1_000_000);
        return watch;
    }

    /**
     * Replaces the slice with one PUT at {@code version} (the one the last write returned, as the
     * EndpointSlice controller writes from its cache; without a version fabric8's {@code update()}
     * first GETs the object) and returns the new version.
     */
    private static String update(NonNamespaceOperation<EndpointSlice, ?, Resource<EndpointSlice>> slices, EndpointSlice slice,
            String version) {
        slice.getMetadata().setResourceVersion(version);
        return slices.resource(slice).update().getMetadata().getResourceVersion();
    }

    private static EndpointSlice warmUpSlice(String ns, int generation) {
        return new EndpointSliceBuilder(SyntheticObjects.slice(0, generation, Instant.now().toString())).editMetadata()
                .withNamespace(ns).withName("warm-up").addToLabels("service.kubernetes.io/service-proxy-name", "kproxy-bench-warm-up")
                .endMetadata().build();
    }

    /**
     * Serves the agent's three lists (its own queries) three times through HTTP before the agent
     * starts. The store is loaded without HTTP, so the mock's own JVM has not yet compiled its
     * list path (the CRUD filter, Jackson writing 12 MB of objects); a real API server that has
     * been answering lists has, and its watch cache answers them from memory. Without this the
     * agent's cold start would include the mock's warm-up: at 10,000 Services the first round
     * took 379-425 ms, a warm one 112-169 ms (2-vCPU VM).
     */
    private static void warm(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            for (String path : List.of("/api/v1/nodes?fieldSelector=metadata.name%3D" + SyntheticObjects.NODE + "&limit=500",
                    "/api/v1/services?" + AGENT_SELECTOR, "/apis/discovery.k8s.io/v1/endpointslices?" + AGENT_SELECTOR)) {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() != 200) {
                    throw new IllegalStateException("warm-up list " + path + " answered " + r.statusCode());
                }
            }
            System.out.printf("warm-up round %d: the three lists in %d ms%n", round + 1, (System.nanoTime() - start) / 1_000_000);
        }
    }

    /**
     * Loads the objects straight into the CRUD store (no HTTP round trip per object) and returns
     * each EndpointSlice's resourceVersion, for the changes' single PUTs ({@link #update}).
     */
    private static String[] load(WatchFromVersionDispatcher crud, int n) throws Exception {
        crud.creatingNewObjects(true);
        create(crud, "/api/v1/nodes", SyntheticObjects.node());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> done = new ArrayList<>();
        String loaded = Instant.now().toString();
        String[] versions = new String[n];
        for (int i = 0; i < n; i++) {
            int k = i;
            done.add(pool.submit(() -> {
                String ns = SyntheticObjects.namespace(k);
                create(crud, "/api/v1/namespaces/" + ns + "/services", SyntheticObjects.service(k));
                versions[k] = create(crud, "/apis/discovery.k8s.io/v1/namespaces/" + ns + "/endpointslices",
                        SyntheticObjects.slice(k, 0, loaded));
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        crud.creatingNewObjects(false);
        return versions;
    }

    /** Creates the object and returns the resourceVersion the store gave it. */
    private static String create(KubernetesCrudDispatcher crud, String path, Object object) {
        byte[] body = Serialization.asJson(object).getBytes(StandardCharsets.UTF_8);
        MockResponse r = crud.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.POST, path,
                new Headers.Builder().add("Content-Type", "application/json").build(), new Buffer(body)));
        if (r.code() >= 300) {
            throw new IllegalStateException("create " + path + " answered " + r.code());
        }
        return Serialization.unmarshal(r.getBody().readUtf8(), GenericKubernetesResource.class).getMetadata().getResourceVersion();
    }
}
