package io.kproxy.bench.iptables;

import io.kproxy.backend.Backend;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The iptables backend at scale, beside the nftables one, in one run (root; every kernel
 * operation inside a fresh private network namespace, deleted afterwards): N ClusterIP services
 * x 5 endpoints, for iptables-nft and for iptables-legacy (the backend detects the variant; a
 * kubelet hint chain in legacy's mangle table makes it choose legacy, as on a legacy node).
 * <ol>
 *   <li>pure: full render + diff, and render + diff of one endpoint change;</li>
 *   <li>full sync into an empty namespace (the restart case: iptables-save, jumps, restore);</li>
 *   <li>one-endpoint changes as partial restores (KEP-3453: top-level chains + that service);</li>
 *   <li>the same changes as a minimal restore (only that service's chains), for comparison;</li>
 *   <li>the floor: the same full input through one flushing {@code iptables-restore} into another
 *       fresh namespace;</li>
 *   <li>a forced full resync over the loaded tables (the hourly one).</li>
 * </ol>
 * Usage: {@code java -cp <bench classpath> io.kproxy.bench.iptables.IptablesScaleBench [services=10000] [changes=5]
 * [variants=nft,legacy] [limit per variant, e.g. 20m or 90s, 0 = none; or one per variant: 22m,10m]}. With a limit, a variant still
 * running when it passes is stopped (its restore processes ended, the namespace deleted) and
 * reported with how far it got: how many of the Services' {@code KUBE-SVC-} chains its
 * namespace held, sampled every minute while it runs. Without one, each tool run waits up to
 * the backend's own limit and the bench's 10 minutes.
 */
public final class IptablesScaleBench {

    private static final SecureRandom RANDOM = new SecureRandom();

    private IptablesScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        List<String> variants = List.of((args.length > 2 ? args[2] : "nft,legacy").split(","));
        List<Duration> limits = new ArrayList<>();
        for (String l : (args.length > 3 ? args[3] : "0").split(",")) {
            limits.add(limit(l));
        }
        if (!List.of("nft", "legacy").containsAll(variants) || changes < 1 || n < 1
                || limits.size() != 1 && limits.size() != variants.size()) {
            throw new IllegalArgumentException(
                    "usage: IptablesScaleBench [services] [changes >= 1] [nft,legacy] [limit per variant: 20m, 90s, or 22m,10m]");
        }
        BackendProvider provider = BackendProvider.forMode("iptables").orElseThrow();
        PersistentMap<ServicePortName, ServicePortState> services = BenchStates.services(n);

        Backend pure = provider.create(new MemoryKernelPort(), new MemoryKernelPort());
        long t0 = System.nanoTime();
        Plan plan = pure.render(BenchStates.state(services));
        Transaction full = pure.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
        System.out.printf("services=%d endpoints=%d fullOps=%d fullTextBytes=%d%n", n, n * 5, full.operations(), full.text().length());
        System.out.printf("pure full render+diff: %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        List<Long> pureTimes = new ArrayList<>();
        Plan applied = full.result();
        int partialOps = 0;
        for (int i = 0; i < 60; i++) {
            BenchStates.Change c = BenchStates.endpointChange(services, (i * 37) % n, i + 1);
            long s = System.nanoTime();
            Transaction tx = pure.diff(Optional.of(applied), pure.renderIncremental(applied, c.state(), c.delta()), SyncOptions.at(Instant.EPOCH));
            long e = System.nanoTime() - s;
            if (i >= 30) {
                pureTimes.add(e);
            }
            partialOps = tx.operations();
        }
        System.out.printf("pure render+diff one endpoint change (%d ops): median %.2f ms%n", partialOps, median(pureTimes) / 1e6);

        for (String variant : variants) {
            Duration limit = limits.get(limits.size() == 1 ? 0 : variants.indexOf(variant));
            String ns = "kp-bench-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
            run(List.of("ip", "netns", "add", ns), null);
            try {
                if (variant.equals("legacy")) {
                    run(List.of("ip", "netns", "exec", ns, "iptables-legacy", "-t", "mangle", "-N", "KUBE-IPTABLES-HINT"), null);
                }
                deadline = System.nanoTime() + limit.toNanos();
                try (Backend kernel = provider.create(Optional.of(ns))) {
                    Bounded.run(variant, limit, () -> {
                        measure(variant, ns, kernel, services, n, changes);
                        return null;
                    }, () -> serviceChains(variant, ns), n);
                }
            } finally {
                run(List.of("ip", "netns", "del", ns), null);
            }
        }
    }

    /** {@code 20m} or {@code 90s}; {@code 0} for none. */
    static Duration limit(String text) {
        if (text.equals("0")) {
            return NO_LIMIT;
        }
        long amount = Long.parseLong(text.substring(0, text.length() - 1));
        Duration d = switch (text.charAt(text.length() - 1)) {
            case 'm' -> Duration.ofMinutes(amount);
            case 's' -> Duration.ofSeconds(amount);
            default -> throw new IllegalArgumentException("a limit is minutes (20m) or seconds (90s): " + text);
        };
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("a limit must be positive: " + text);
        }
        return d;
    }

    /** A limit no run reaches. */
    private static final Duration NO_LIMIT = Duration.ofDays(1);

    /** When the variant being measured must end (its tool runs wait no longer); set per variant. */
    private static volatile long deadline = System.nanoTime() + NO_LIMIT.toNanos();

    /** How many {@code KUBE-SVC-} chains the namespace's nat table holds (-1 when the tool failed). */
    private static long serviceChains(String variant, String ns) {
        List<String> cmd = variant.equals("nft") ? List.of("ip", "netns", "exec", ns, "nft", "list", "chains", "ip")
                : List.of("ip", "netns", "exec", ns, "iptables-legacy-save", "-t", "nat");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            long count;
            try (var lines = p.inputReader(StandardCharsets.UTF_8).lines()) {
                // Declarations only: "chain KUBE-SVC-… {" (nft), ":KUBE-SVC-… - [0:0]" (legacy's save).
                count = lines.map(String::strip).filter(l -> l.startsWith("chain KUBE-SVC-") || l.startsWith(":KUBE-SVC-")).count();
            }
            return p.waitFor(2, TimeUnit.MINUTES) && p.exitValue() == 0 ? count : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void measure(String variant, String ns, Backend kernel, PersistentMap<ServicePortName, ServicePortState> services, int n,
            int changes) throws Exception {
        System.out.printf("[%s] measuring in %s%n", variant, ns);
        Plan plan = kernel.render(BenchStates.state(services));
        Transaction full = kernel.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
        long s = System.nanoTime();
        kernel.apply(full);
        System.out.printf("[%s] full sync into an empty namespace: %.2f s%n", variant, (System.nanoTime() - s) / 1e9);
        Plan last = full.result();
        PersistentMap<ServicePortName, ServicePortState> current = services;
        List<Long> partial = new ArrayList<>();
        List<Long> minimal = new ArrayList<>();
        int ops = 0;
        for (int i = 0; i < 2 * changes; i++) {
            BenchStates.Change c = BenchStates.endpointChange(current, (i * 7919) % n, 1000 + i);
            current = c.services();
            Plan desired = kernel.renderIncremental(last, c.state(), c.delta());
            Transaction tx = kernel.diff(Optional.of(last), desired, SyncOptions.at(Instant.EPOCH));
            long a = System.nanoTime();
            if (i < changes) {
                kernel.apply(tx);
                partial.add(System.nanoTime() - a);
                ops = tx.operations();
            } else {
                String text = minimal(tx.text());
                a = System.nanoTime();
                int rc = runBounded(List.of("ip", "netns", "exec", ns, "iptables-" + variant + "-restore", "--noflush", "-w", "5"), text);
                minimal.add(System.nanoTime() - a);
                if (rc != 0) {
                    throw new IllegalStateException("minimal restore failed");
                }
            }
            last = tx.result();
        }
        System.out.printf("[%s] partial restore of one endpoint change (%d ops): median %.0f ms (min %.0f, max %.0f) over %d%n", variant, ops,
                median(partial) / 1e6, Collections.min(partial) / 1e6, Collections.max(partial) / 1e6, changes);
        System.out.printf("[%s] minimal restore (that service's chains only): median %.0f ms (min %.0f, max %.0f) over %d%n", variant,
                median(minimal) / 1e6, Collections.min(minimal) / 1e6, Collections.max(minimal) / 1e6, changes);
        // The floor after the changes: at 100,000 Services on iptables-nft it is the longest step.
        floor(variant, full.text());
        Transaction resync = kernel.diff(Optional.of(last), last, SyncOptions.fullAt(Instant.EPOCH));
        s = System.nanoTime();
        kernel.apply(resync);
        System.out.printf("[%s] forced full resync over loaded tables: %.2f s%n", variant, (System.nanoTime() - s) / 1e9);
        if (!kernel.rulesIntact()) {
            throw new IllegalStateException("canary missing after a full sync");
        }
    }

    /**
     * The floor: the IPv4 part of the same full transaction loaded by one flushing
     * {@code iptables-<variant>-restore} (process start included) into another fresh namespace,
     * as the tools load upstream's layout (docs/kernel-floor.md).
     */
    private static void floor(String variant, String fullText) throws Exception {
        int cut = fullText.indexOf("# IPv6");
        String v4 = oneSectionPerTable(cut < 0 ? fullText : fullText.substring(0, cut));
        String ns = "kp-floor-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        run(List.of("ip", "netns", "add", ns), null);
        try {
            long s = System.nanoTime();
            int rc = runBounded(List.of("ip", "netns", "exec", ns, "iptables-" + variant + "-restore", "-w", "5"), v4);
            System.out.printf("[%s] floor: iptables-%s-restore of the same IPv4 input, fresh namespace: %.2f s (exit %d)%n", variant, variant,
                    (System.nanoTime() - s) / 1e9, rc);
        } finally {
            run(List.of("ip", "netns", "del", ns), null);
        }
    }

    /**
     * The backend's restore input holds several sections of a table (blocks for {@code --noflush}
     * runs); a flushing restore empties a table at each of its sections, so the floor gets one
     * section per table: every chain declared once, then every rule in order.
     */
    static String oneSectionPerTable(String text) {
        Map<String, Set<String>> chains = new LinkedHashMap<>();
        Map<String, List<String>> rules = new LinkedHashMap<>();
        String table = null;
        for (String l : text.split("\n")) {
            if (l.startsWith("*")) {
                table = l.substring(1);
                chains.computeIfAbsent(table, t -> new LinkedHashSet<>());
                rules.computeIfAbsent(table, t -> new ArrayList<>());
            } else if (table != null && l.startsWith(":")) {
                chains.get(table).add(l);
            } else if (table != null && l.startsWith("-A ")) {
                rules.get(table).add(l);
            }
        }
        StringBuilder b = new StringBuilder();
        chains.forEach((t, declared) -> {
            b.append('*').append(t).append('\n');
            declared.forEach(c -> b.append(c).append('\n'));
            rules.get(t).forEach(r -> b.append(r).append('\n'));
            b.append("COMMIT\n");
        });
        return b.toString();
    }

    /** The IPv4 section of a partial transaction without its top-level chains: the changed service's blocks and deletions only. */
    static String minimal(String tx) {
        StringBuilder b = new StringBuilder("*nat\n");
        List<String> deletes = new ArrayList<>();
        boolean serviceBlock = false;
        for (String l : tx.split("\n")) {
            if (l.equals("# IPv6")) {
                break;
            }
            if (l.startsWith("*")) {
                serviceBlock = false;
            } else if (l.startsWith(":KUBE-SVC-") || l.startsWith(":KUBE-SEP-") || l.startsWith(":KUBE-EXT-") || l.startsWith(":KUBE-FW-")
                    || l.startsWith(":KUBE-SVL-")) {
                serviceBlock = true;
                b.append(l).append('\n');
            } else if (l.startsWith("-X ")) {
                deletes.add(l);
            } else if (serviceBlock && l.startsWith("-A ")) {
                b.append(l).append('\n');
            }
        }
        deletes.forEach(d -> b.append(d).append('\n'));
        return b.append("COMMIT\n").toString();
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    private static int run(List<String> cmd, String stdin) throws IOException, InterruptedException {
        return run(cmd, stdin, Duration.ofMinutes(10));
    }

    /**
     * A restore of the measurement: the bench's 10 minutes without a limit; with one, until two
     * minutes past it, so that {@link Bounded} ends it at the limit and reports where it stood.
     */
    private static int runBounded(List<String> cmd, String stdin) throws IOException, InterruptedException {
        Duration max = deadline - System.nanoTime() > NO_LIMIT.toNanos() / 2 ? Duration.ofMinutes(10)
                : Duration.ofNanos(Math.max(0, deadline - System.nanoTime())).plusMinutes(2);
        return run(cmd, stdin, max);
    }

    private static int run(List<String> cmd, String stdin, Duration max) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = p.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!p.waitFor(max.toNanos(), TimeUnit.NANOSECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
        return p.exitValue();
    }
}
