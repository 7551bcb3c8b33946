package io.kproxy.bench.nftables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * End to end at scale, in one run (root; every kernel operation inside a fresh private network
 * namespace that is deleted afterwards): N ClusterIP services x 5 endpoints.
 * <ol>
 *   <li>full render, and render + diff of one endpoint change (pure, median of many);</li>
 *   <li>the full transaction applied through the backend's kernel port;</li>
 *   <li>partial syncs, each kind {@code samples} times, median and p99 of the apply (compile and
 *       kernel): one endpoint replaced, one added, one removed, a service added, a service deleted;</li>
 *   <li>the same whole ruleset loaded by {@code nft -f} into a fresh namespace, for comparison.</li>
 * </ol>
 * The kernel port is the provider's default (netlink, libnftables as the fallback); run with
 * {@code -Dkproxy.nftables.client=libnftables} for the libnftables baseline.
 * Usage: {@code java -cp <bench classpath> io.kproxy.bench.nftables.NftablesScaleBench [services] [samples]}.
 */
public final class NftablesScaleBench {

    private static final SecureRandom RANDOM = new SecureRandom();

    private NftablesScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int samples = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        BackendProvider provider = BackendProvider.forMode("nftables").orElseThrow();

        PersistentMap<ServicePortName, ServicePortState> services = BenchStates.services(n);
        long t0 = System.nanoTime();
        Backend pure = provider.create(new MemoryKernelPort(), new MemoryKernelPort());
        Plan plan = pure.render(BenchStates.state(services));
        Transaction full = pure.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
        long fullRenderNanos = System.nanoTime() - t0;
        System.out.printf("services=%d endpoints=%d fullTransactionOps=%d fullTextBytes=%d client=%s%n", n, n * 5, full.operations(),
                full.text().length(), System.getProperty("kproxy.nftables.client", "netlink"));

        List<Long> pureTimes = new ArrayList<>();
        Plan applied = full.result();
        for (int i = 0; i < 400; i++) {
            BenchStates.Change c = BenchStates.endpointChange(services, (i * 37) % n, i + 1);
            long s = System.nanoTime();
            Plan desired = pure.renderIncremental(applied, c.state(), c.delta());
            Transaction tx = pure.diff(Optional.of(applied), desired, SyncOptions.at(Instant.EPOCH));
            long e = System.nanoTime() - s;
            if (i >= 200) {
                pureTimes.add(e);
            }
            if (tx.isEmpty()) {
                throw new IllegalStateException("an endpoint change gave an empty transaction");
            }
        }
        System.out.printf("pure full render+diff: %.1f ms%n", fullRenderNanos / 1e6);
        System.out.printf("pure render+diff one endpoint change: median %.1f us (p90 %.1f us)%n", median(pureTimes) / 1e3,
                percentile(pureTimes, 0.9) / 1e3);

        String ns = "kp-bench-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        run(List.of("ip", "netns", "add", ns), null);
        try (Backend kernel = provider.create(Optional.of(ns))) {
            long s = System.nanoTime();
            kernel.apply(full);
            System.out.printf("full load: %.2f s%n", (System.nanoTime() - s) / 1e9);
            Session session = new Session(kernel, full.result(), services);
            // Each kind touches services of its own, so that every sample is one change of that kind.
            session.measure("one endpoint replaced", samples, k -> BenchStates.service(k * 7 % n, 1000 + k, 5), k -> k * 7 % n);
            session.measure("one endpoint added", samples, k -> BenchStates.service(k * 11 % n + 1, 0, 6), k -> k * 11 % n + 1);
            session.measure("one endpoint removed", samples, k -> BenchStates.service(k * 11 % n + 1, 0, 5), k -> k * 11 % n + 1);
            session.measure("service added", samples, k -> BenchStates.service(n + k, 0, 5), k -> n + k);
            session.measure("service deleted", samples, k -> null, k -> n + k);
        } catch (KernelException e) {
            System.out.println("kernel refused: " + e.getMessage());
            throw e;
        } finally {
            run(List.of("ip", "netns", "del", ns), null);
        }

        String ns2 = "kp-bench-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        run(List.of("ip", "netns", "add", ns2), null);
        try {
            long s = System.nanoTime();
            int rc = run(List.of("ip", "netns", "exec", ns2, "nft", "-f", "-"), plan.rulesetText());
            System.out.printf("nft -f whole ruleset (process, fresh netns): %.2f s (exit %d)%n", (System.nanoTime() - s) / 1e9, rc);
        } finally {
            run(List.of("ip", "netns", "del", ns2), null);
        }
    }

    /** Partial syncs against one kernel, the engine's cycle: render incrementally, diff, apply; 100 ms apart. */
    private static final class Session {
        private final Backend kernel;
        private Plan last;
        private PersistentMap<ServicePortName, ServicePortState> services;
        private Instant now = Instant.EPOCH;

        Session(Backend kernel, Plan last, PersistentMap<ServicePortName, ServicePortState> services) {
            this.kernel = kernel;
            this.last = last;
            this.services = services;
        }

        void measure(String what, int samples, IntFunction<ServicePortState> next, IntFunction<Integer> index) throws KernelException {
            List<Long> times = new ArrayList<>();
            int ops = 0;
            for (int k = 0; k < samples; k++) {
                BenchStates.Change c = BenchStates.replace(services, index.apply(k), next.apply(k));
                services = c.services();
                now = now.plusMillis(100);
                Plan desired = kernel.renderIncremental(last, c.state(), c.delta());
                Transaction tx = kernel.diff(Optional.of(last), desired, SyncOptions.at(now));
                long a = System.nanoTime();
                kernel.apply(tx);
                times.add(System.nanoTime() - a);
                ops = Math.max(ops, tx.operations());
                last = tx.result();
            }
            System.out.printf("%-22s median %7.2f ms  p99 %7.2f ms  max %7.2f ms  (n=%d, up to %d ops)%n", what, median(times) / 1e6,
                    percentile(times, 0.99) / 1e6, Collections.max(times) / 1e6, samples, ops);
        }
    }

    private static long median(List<Long> xs) {
        return percentile(xs, 0.5);
    }

    /** Nearest-rank percentile. */
    private static long percentile(List<Long> xs, double p) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        int rank = (int) Math.ceil(p * s.size());
        return s.get(Math.clamp(rank - 1, 0, s.size() - 1));
    }

    private static int run(List<String> cmd, String stdin) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!p.waitFor(Duration.ofMinutes(10).toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
        return p.exitValue();
    }
}
