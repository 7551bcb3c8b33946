package io.kproxy.bench.agent;

import io.kproxy.backend.Backend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FamilyState;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodeInfo;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.management.ObjectName;

/**
 * What the agent's first sync and its single-change syncs cost inside the JVM, stage by stage,
 * at {@code n} ClusterIP Services × 5 endpoints (the shape of {@link SyntheticObjects}): the full
 * render, the ruleset hash, the full transaction's text, the heap each retains (measured after a
 * GC) and, given root, the full apply through the backend's own kernel port into a fresh network
 * namespace (deleted afterwards) with the heap's peak during it; then {@code changes} one-endpoint
 * syncs (render, diff, hash, apply). For profiling the agent's sync path without the API server
 * and the source: run with {@code -XX:StartFlightRecording}.
 *
 * <p>Usage: {@code java -cp <bench classpath> io.kproxy.bench.agent.FirstSyncCost [n=10000] [changes=200] [netns=yes|no] [histogram]}.
 */
public final class FirstSyncCost {

    private static final SecureRandom RANDOM = new SecureRandom();

    private FirstSyncCost() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        boolean kernel = args.length <= 2 || args[2].equals("yes");
        BackendProvider provider = BackendProvider.forMode("nftables").orElseThrow();
        PersistentMap<ServicePortName, ServicePortState> ports = PersistentMap.empty();
        for (int i = 0; i < n; i++) {
            ports = ports.plus(name(i), port(i, 0));
        }
        NodeState state = state(ports);
        long base = usedAfterGc();
        System.out.printf("n=%d services x 5 endpoints; heap used by the state %.1f MB%n", n, mb(base - 0));

        Backend pure = provider.create(new MemoryKernelPort(), new MemoryKernelPort());
        long t = System.nanoTime();
        Plan plan = pure.render(state);
        long render = System.nanoTime() - t;
        t = System.nanoTime();
        String hash = plan.rulesetHash();
        long hashing = System.nanoTime() - t;
        long withPlan = usedAfterGc();
        long warm = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long w = System.nanoTime();
            pure.render(state);
            warm = Math.min(warm, System.nanoTime() - w);
        }
        System.out.printf("full render warm (best of 3): %.0f ms%n", warm / 1e6);
        t = System.nanoTime();
        Transaction full = pure.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
        long diff = System.nanoTime() - t;
        long withText = usedAfterGc();
        if (args.length > 3 && args[3].equals("histogram")) {
            // The live heap with the state and the plan (what a node keeps between syncs), top classes.
            Object out = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "gcClassHistogram", new Object[] {new String[0]}, new String[] {String[].class.getName()});
            out.toString().lines().limit(40).forEach(System.out::println);
        }
        System.out.printf("full render %.0f ms (plan retains %.1f MB), ruleset hash %.1f ms (%s...), full diff %.0f ms (%,d operations,"
                + " %.1f MB of text, retains %.1f MB)%n", render / 1e6, mb(withPlan - base), hashing / 1e6, hash.substring(0, 12), diff / 1e6,
                full.operations(), full.text().length() / 1e6, mb(withText - withPlan));

        String ns = "kp-fsc-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        if (kernel) {
            run("ip", "netns", "add", ns);
        }
        try (Backend b = kernel ? provider.create(Optional.of(ns)) : pure) {
            resetPeaks();
            t = System.nanoTime();
            b.apply(full);
            System.out.printf("full apply %.2f s through %s; heap peak during render..apply %.1f MB%n", (System.nanoTime() - t) / 1e9,
                    kernel ? "the kernel port (fresh netns)" : "memory", mb(peak()));
            full = null;
            Plan last = plan;
            List<Long> sync = new ArrayList<>();
            List<Long> hashes = new ArrayList<>();
            Instant now = Instant.EPOCH;
            for (int c = 1; c <= changes; c++) {
                int i = (c * 7919) % n;
                ports = ports.plus(name(i), port(i, c));
                NodeState next = state(ports);
                now = now.plusMillis(50);
                long s = System.nanoTime();
                Plan desired = b.renderIncremental(last, next, new StateDelta(Set.of(name(i)), Set.of(), false, false));
                Transaction tx = b.diff(Optional.of(last), desired, SyncOptions.at(now));
                b.apply(tx);
                long h = System.nanoTime();
                tx.result().rulesetHash();
                long e = System.nanoTime();
                sync.add(h - s);
                hashes.add(e - h);
                last = tx.result();
            }
            if (!sync.isEmpty()) { // none with changes=0 (the full apply alone, e.g. under perf)
                System.out.printf("single-endpoint syncs (render+diff+apply): p50 %.2f ms p99 %.2f ms max %.2f ms; ruleset hash p50 %.2f ms"
                        + " p99 %.2f ms%n", pct(sync, 0.5), pct(sync, 0.99), Collections.max(sync) / 1e6, pct(hashes, 0.5), pct(hashes, 0.99));
            }
        } finally {
            if (kernel) {
                run("ip", "netns", "del", ns);
            }
        }
    }

    static ServicePortName name(int i) {
        return new ServicePortName(new ServiceRef(SyntheticObjects.namespace(i), SyntheticObjects.name(i)), "http", Protocol.TCP);
    }

    /** Service {@code i}; generation g moves endpoint 0, as {@link SyntheticObjects#slice} does. */
    static ServicePortState port(int i, int generation) {
        List<Endpoint> eps = new ArrayList<>();
        for (int e = 0; e < 5; e++) {
            int host = i * 5 + e + (e == 0 ? generation * 7 : 0);
            eps.add(new Endpoint(IpAddress.ofV4((10 << 24) | host), new Port(8080), false, true, true, false, "node-" + ((i + e) % 50),
                    Set.of(), Set.of()));
        }
        eps.sort((a, b) -> a.hostPort().compareTo(b.hostPort()));
        IpAddress cip = IpAddress.ofV4((172 << 24) | (30 << 16) | ((i / 250) << 8) | (i % 250 + 1));
        return new ServicePortState(name(i), cip, new Port(80), 0, List.of(), List.of(), List.of(), false, false, 0, 0, eps, eps, List.of(),
                true, true, false);
    }

    static NodeState state(PersistentMap<ServicePortName, ServicePortState> v4) {
        NodeInfo node = new NodeInfo(SyntheticObjects.NODE, true, "", List.of(IpAddress.parse("192.168.0.2")), List.of(), true);
        DataplaneSettings settings = new DataplaneSettings("nftables", false, 14, 14, false, List.of(Cidr.parse("172.30.0.0/16")));
        return new NodeState(node, settings, true,
                new FamilyState(IpFamily.IPV4, v4, List.of(IpAddress.parse("192.168.0.2")),
                        new NodePortAddresses.Cidrs(List.of(Cidr.parse("192.168.0.2/32"))),
                        new LocalDetector.Cidrs(List.of(Cidr.parse("10.0.0.0/8")))),
                new FamilyState(IpFamily.IPV6, PersistentMap.empty(), List.of(), new NodePortAddresses.MatchAll(), new LocalDetector.None()));
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    /** Sum of the heap pools' peaks since {@link #resetPeaks()} (an upper bound of the heap in use at once). */
    private static long peak() {
        return ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
    }

    private static double mb(long bytes) {
        return bytes / 1e6;
    }

    private static double pct(List<Long> xs, double p) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(Math.clamp((int) Math.ceil(p * s.size()) - 1, 0, s.size() - 1)) / 1e6;
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("failed: " + String.join(" ", cmd));
        }
    }
}
