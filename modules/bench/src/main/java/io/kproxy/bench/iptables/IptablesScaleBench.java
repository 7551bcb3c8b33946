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
 *   <li>a forced full resync over the loaded tables (the hourly one).</li>
 * </ol>
 * Usage: {@code java -cp <bench classpath> io.kproxy.bench.iptables.IptablesScaleBench [services] [changes]}.
 */
public final class IptablesScaleBench {

    private static final SecureRandom RANDOM = new SecureRandom();

    private IptablesScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
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

        for (String variant : List.of("nft", "legacy")) {
            String ns = "kp-bench-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
            run(List.of("ip", "netns", "add", ns), null);
            try {
                if (variant.equals("legacy")) {
                    run(List.of("ip", "netns", "exec", ns, "iptables-legacy", "-t", "mangle", "-N", "KUBE-IPTABLES-HINT"), null);
                }
                try (Backend kernel = provider.create(Optional.of(ns))) {
                    measure(variant, ns, kernel, services, n, changes);
                }
            } finally {
                run(List.of("ip", "netns", "del", ns), null);
            }
        }
    }

    private static void measure(String variant, String ns, Backend kernel, PersistentMap<ServicePortName, ServicePortState> services, int n,
            int changes) throws Exception {
        Plan plan = kernel.render(BenchStates.state(services));
        Transaction full = kernel.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
        long s = System.nanoTime();
        kernel.apply(full);
        System.out.printf("[%s] full sync into an empty namespace: %.2f s%n", variant, (System.nanoTime() - s) / 1e9);
        floor(variant, full.text());
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
                int rc = run(List.of("ip", "netns", "exec", ns, "iptables-" + variant + "-restore", "--noflush", "-w", "5"), text);
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
            int rc = run(List.of("ip", "netns", "exec", ns, "iptables-" + variant + "-restore", "-w", "5"), v4);
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
