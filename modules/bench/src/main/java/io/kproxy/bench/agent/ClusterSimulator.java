package io.kproxy.bench.agent;

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
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cluster side of {@link AgentScaleBench}, run as its own process inside the benchmark's
 * network namespace ({@code ip netns exec}), so that the agent reaches it on loopback: fabric8's
 * CRUD mock API server on 127.0.0.1:{@code port}, loaded with {@link SyntheticObjects}. It prints
 * how long the load took, then {@code READY} once loaded and warm (the agent's three lists served through HTTP three times,
 * each round's time printed as a {@code warm-up} line, and changes sent through the update and
 * watch paths on an object the agent does not watch); a watch from a list's version gets only
 * later changes, as from a real API server ({@link WatchFromVersionDispatcher}), and lists come in
 * pages with continue tokens ({@link PagedListDispatcher}); on {@code GO} (standard input) it changes
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
        PagedListDispatcher crud = new PagedListDispatcher();
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
     * Serves the agent's three lists (its own queries, every page) three times through HTTP
     * before the agent starts, and prints each round's time and pages. The store is loaded
     * without HTTP, so the mock's own JVM has not yet compiled its list path; a real API server
     * that has been answering lists has, and answers them from memory. Without this the agent's
     * cold start would include the mock's warm-up: at 10,000 Services the first round took
     * 379-425 ms, a warm one 112-169 ms (2-vCPU VM, the mock's unpaged lists).
     */
    private static void warm(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int round = 0; round < 3; round++) {
            long start = System.nanoTime();
            double cpu = cpuSeconds();
            int pages = 0;
            long bytes = 0;
            for (String path : List.of("/api/v1/nodes?fieldSelector=metadata.name%3D" + SyntheticObjects.NODE + "&limit=500",
                    "/api/v1/services?" + AGENT_SELECTOR, "/apis/discovery.k8s.io/v1/endpointslices?" + AGENT_SELECTOR)) {
                for (String next = path; next != null; pages++) {
                    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + next)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("warm-up list " + next + " answered " + r.statusCode());
                    }
                    bytes += r.body().length;
                    int tail = Math.max(0, r.body().length - 400);
                    next = continueToken(new String(r.body(), tail, r.body().length - tail, StandardCharsets.UTF_8))
                            .map(t -> path + "&continue=" + URLEncoder.encode(t, StandardCharsets.UTF_8)).orElse(null);
                }
            }
            System.out.printf("warm-up round %d: the three lists in %d ms, CPU %.2f s (%d pages, %.1f MB)%n", round + 1,
                    (System.nanoTime() - start) / 1_000_000, cpuSeconds() - cpu, pages, bytes / 1e6);
        }
    }

    /**
     * This JVM's CPU time so far (every thread: the mock's, the warm-up client's, the collector's
     * and the compilers'): steadier than wall time on a shared machine.
     */
    static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** The {@code metadata.continue} of a list page ({@link ListPages#body} writes it last). */
    static Optional<String> continueToken(String listBody) {
        Matcher m = CONTINUE.matcher(listBody.substring(Math.max(0, listBody.length() - 400)));
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static final Pattern CONTINUE = Pattern.compile("\"continue\": ?\"([^\"]+)\"");

    /**
     * Loads the objects straight into the store ({@link PagedListDispatcher#store}: no request,
     * no parse, one serialisation each) on two threads, prints how long it took, and returns each
     * EndpointSlice's resourceVersion, for the changes' single PUTs ({@link #update}).
     */
    private static String[] load(PagedListDispatcher crud, int n) throws Exception {
        long start = System.nanoTime();
        double cpu = cpuSeconds();
        crud.store(SyntheticObjects.node());
        crud.store(SyntheticObjects.apiService());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        String loaded = Instant.now().toString();
        String[] versions = new String[n];
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int first = t;
            done.add(pool.submit(() -> {
                for (int i = first; i < n; i += 2) {
                    crud.store(SyntheticObjects.service(i));
                    versions[i] = crud.store(SyntheticObjects.slice(i, 0, loaded));
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        System.out.printf("loaded %,d Services (and default/kubernetes), %,d EndpointSlices and the Node in %d ms, CPU %.2f s%n", n, n,
                (System.nanoTime() - start) / 1_000_000, cpuSeconds() - cpu);
        return versions;
    }
}
