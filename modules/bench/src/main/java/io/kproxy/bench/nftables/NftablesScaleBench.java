package io.kproxy.bench.nftables;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
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

/**
 * End to end at scale, in one run (root; every kernel operation inside a fresh private network
 * namespace that is deleted afterwards): N ClusterIP services x 5 endpoints.
 * <ol>
 *   <li>full render, and render + diff of one endpoint change (pure, median of many);</li>
 *   <li>the full transaction applied in-process through libnftables;</li>
 *   <li>one-endpoint-change transactions applied in-process (median of several);</li>
 *   <li>the same whole ruleset loaded by {@code nft -f} into a fresh namespace, for comparison.</li>
 * </ol>
 * Usage: {@code java -cp <bench classpath> io.kproxy.bench.nftables.NftablesScaleBench [services] [changes]}.
 */
public final class NftablesScaleBench {

    private static final SecureRandom RANDOM = new SecureRandom();

    private NftablesScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        BackendProvider provider = BackendProvider.forMode("nftables").orElseThrow();

        PersistentMap<ServicePortName, ServicePortState> services = BenchStates.services(n);
        long t0 = System.nanoTime();
        Backend pure = provider.create(new io.kproxy.backend.MemoryKernelPort(), new io.kproxy.backend.MemoryKernelPort());
        Plan plan = pure.render(BenchStates.state(services));
        Transaction full = pure.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
        long fullRenderNanos = System.nanoTime() - t0;
        System.out.printf("services=%d endpoints=%d fullTransactionOps=%d fullTextBytes=%d%n", n, n * 5, full.operations(), full.text().length());

        // Pure: render + diff of one endpoint change, warmed up, median of 200.
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
            System.out.printf("in-process full load (libnftables): %.2f s%n", (System.nanoTime() - s) / 1e9);
            List<Long> applyTimes = new ArrayList<>();
            Plan last = full.result();
            PersistentMap<ServicePortName, ServicePortState> current = services;
            Instant now = Instant.EPOCH;
            int ops = 0;
            for (int i = 0; i < changes; i++) {
                BenchStates.Change c = BenchStates.endpointChange(current, (i * 7919) % n, 1000 + i);
                current = c.services();
                now = now.plusMillis(100);
                Plan desired = kernel.renderIncremental(last, c.state(), c.delta());
                Transaction tx = kernel.diff(Optional.of(last), desired, SyncOptions.at(now));
                long a = System.nanoTime();
                kernel.apply(tx);
                applyTimes.add(System.nanoTime() - a);
                ops = tx.operations();
                last = tx.result();
            }
            System.out.printf("in-process apply of one endpoint change (%d ops): median %.1f ms (min %.1f, max %.1f) over %d%n", ops,
                    median(applyTimes) / 1e6, Collections.min(applyTimes) / 1e6, Collections.max(applyTimes) / 1e6, changes);
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

    private static long median(List<Long> xs) {
        return percentile(xs, 0.5);
    }

    private static long percentile(List<Long> xs, double p) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(Math.min(s.size() - 1, (int) (p * s.size())));
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
