package io.kproxy.bench.agent;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent end to end at scale (issue 8), as root, everything inside a fresh private network
 * namespace deleted afterwards: {@link ClusterSimulator} (fabric8's mock API server with
 * {@code n} Services × 5 endpoints) and {@code ./kproxy run} both run in that namespace, as
 * separate processes. Per size it measures
 * <ul>
 *   <li><b>cold start to programmed</b>: from launching {@code ./kproxy run} (empty journal) to
 *       the end of its first sync (JVM start, list of every object, fold, render, the full
 *       transaction);</li>
 *   <li><b>network programming latency</b> of single EndpointSlice changes made at {@code rate}
 *       per second with {@code minSyncPeriod: 0}, from the end of the agent's start-up (the first
 *       sync and, after a large one, the heap collection that follows it): trigger time to the end
 *       of the sync that covered the change, p50 and p99 ({@link JournalLatency});</li>
 *   <li><b>RSS</b> of the agent (peak, and after the changes);</li>
 *   <li><b>the floor</b>: the same ruleset (rendered from the journal's state at the first sync)
 *       loaded by {@code nft -f} into another fresh namespace, in the same run.</li>
 * </ul>
 * Usage (from the repository root, after building app and bench):
 * {@code java -cp <bench classpath> io.kproxy.bench.agent.AgentScaleBench [sizes=1000,10000] [changes=200] [rate=20]}.
 * {@code KPROXY_JAVA_OPTS} is passed to the agent (default: an {@code -Xmx} for the size, twice
 * the live heap at the first sync, 192 MB up to 10,000 Services; the heaps and time limits of a run
 * grow with its size: {@link RunLimits});
 * a floor that outlives the first sync's limit is reported as not done, the run's other numbers
 * kept; with
 * {@code KPROXY_BENCH_HISTOGRAM} set, the agent's live-heap histogram is printed after the first
 * sync and after the changes (each costs the agent a full GC); with {@code KPROXY_BENCH_LATENCIES}
 * set, every change's latency in the order made; with {@code -XX:NativeMemoryTracking=summary} in
 * {@code KPROXY_JAVA_OPTS}, the JVM's memory summary after the first sync and after the changes; with
 * {@code KPROXY_BENCH_RESTART} set, the agent is then started again on the same journal and kernel
 * ({@link AgentRestart}).
 */
public final class AgentScaleBench {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int API_PORT = 16443;

    private AgentScaleBench() {
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String s : (args.length > 0 ? args[0] : "1000,10000").split(",")) {
            sizes.add(Integer.parseInt(s.strip()));
        }
        int changes = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        String configuredOpts = System.getenv("KPROXY_JAVA_OPTS");
        System.out.printf("changes=%d at %d/s; minSyncPeriod 0%n", changes, rate);
        for (int n : sizes) {
            RunLimits limits = RunLimits.forSize(n, changes, rate);
            String javaOpts = limits.agentJavaOpts(configuredOpts);
            System.out.printf("%n%,d Services: agent JVM options %s; simulator -Xmx%dm; limits: simulator ready %s, first sync and floor %s%n",
                    n, javaOpts, limits.simulatorHeapMb(), limits.simulatorReady(), limits.firstSync());
            runOne(n, changes, rate, javaOpts, limits);
        }
    }

    private static void runOne(int n, int changes, int rate, String javaOpts, RunLimits limits) throws Exception {
        String ns = "kp-agentb-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        Path journal = Files.createTempDirectory("kproxy-bench-journal-");
        Path admin = Files.createTempDirectory("kproxy-bench-admin-"); // not the node's /run/kproxy/admin.sock
        Path agentLog = Files.createTempFile("kproxy-bench-agent-", ".log");
        run(List.of("ip", "netns", "add", ns), null);
        Process sim = null;
        Process agent = null;
        try {
            run(List.of("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"), null);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            sim = new ProcessBuilder("ip", "netns", "exec", ns, java, "-Xmx" + limits.simulatorHeapMb() + "m",
                    "--sun-misc-unsafe-memory-access=allow", "-cp",
                    System.getProperty("java.class.path"), ClusterSimulator.class.getName(), Integer.toString(n), Integer.toString(API_PORT),
                    Integer.toString(changes), Integer.toString(rate)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            SimulatorOutput simOut = new SimulatorOutput(sim.getInputStream());
            PrintWriter simIn = new PrintWriter(sim.getOutputStream(), true, StandardCharsets.UTF_8);
            long loadStart = System.nanoTime();
            simOut.await("READY", limits.simulatorReady());
            System.out.printf("%n== %,d services x 5 endpoints (API server loaded in %.1f s)%n", n, (System.nanoTime() - loadStart) / 1e9);

            Instant launched = Instant.now();
            agent = launch(ns, journal, admin, agentLog, javaOpts);
            AtomicLong peakRss = new AtomicLong();
            AtomicLong peakRssAt = new AtomicLong();
            long launchedNanos = System.nanoTime();
            Process a = agent;
            Thread sampler = Thread.ofPlatform().daemon().start(() -> sampleRss(a.pid(), peakRss, peakRssAt, a));
            awaitLog(agentLog, "decision=synced", limits.firstSync(), agent); // 30,000 Services took minutes in the kernel
            if (Files.readString(agentLog).contains(COMPACT_BEFORE)) {
                // The changes start once the agent's start-up is over: after a large first sync the
                // engine collects the heap at once (SyncCycle.compactAroundLargeRewrite, 0.2-0.3 s at
                // 10,000 Services), a pause changes made at that instant would wait for.
                awaitLog(agentLog, COMPACT_AFTER, limits.compaction(), agent);
            }
            long firstSyncSeen = System.nanoTime();
            long rssAfterStart = rss(agent.pid());
            // CPU time is what a shared machine's load distorts least: wall time waits for other jobs.
            double cpuAtStart = cpuSeconds(agent.pid());
            boolean aot = mapsAotCache(agent.pid());
            String rssParts = rssParts(agent.pid());
            if (javaOpts.contains("NativeMemoryTracking")) {
                System.out.println("after the first sync:\n" + jcmd(agent.pid(), "VM.native_memory", "summary"));
            }
            boolean histogram = System.getenv("KPROXY_BENCH_HISTOGRAM") != null;
            if (histogram) {
                System.out.println("heap after the first sync (live objects, top 25):\n" + histogram(agent.pid()));
            }

            Instant changesFrom = Instant.now();
            simIn.println("GO");
            simOut.await("DONE", limits.changes());
            Thread.sleep(3_000); // the last changes' syncs
            long rssAfterChanges = rss(agent.pid());
            if (histogram) {
                System.out.println("heap after the changes (live objects, top 25):\n" + histogram(agent.pid()));
            }
            if (javaOpts.contains("NativeMemoryTracking")) {
                System.out.println("after the changes:\n" + jcmd(agent.pid(), "VM.native_memory", "summary"));
            }
            agent.destroy();
            agent.waitFor(60, TimeUnit.SECONDS);
            sampler.join(1_000);

            JournalLatency j = JournalLatency.read(journal, agentLog, changesFrom);
            double coldStart = Duration.between(launched, j.firstSync()).toMillis() / 1000.0;
            List<Long> ms = new ArrayList<>(j.latencies().stream().map(Duration::toMillis).toList());
            if (System.getenv("KPROXY_BENCH_LATENCIES") != null) {
                System.out.println("latencies in change order (ms): " + ms);
            }
            Collections.sort(ms);
            String ruleset = BackendProvider.forMode("nftables").orElseThrow().create(new MemoryKernelPort(), new MemoryKernelPort())
                    .render(j.stateAtFirstSync().node()).rulesetText();
            OptionalDouble floor = nftFloor(ruleset, limits.firstSync());
            if (floor.isPresent()) {
                System.out.printf("cold start to programmed: %.2f s; kernel floor (nft -f of the same %,d-line ruleset, fresh netns): %.2f s;"
                        + " difference %.2f s%n", coldStart, ruleset.lines().count(), floor.getAsDouble(), coldStart - floor.getAsDouble());
            } else {
                System.out.printf("cold start to programmed: %.2f s; kernel floor (nft -f of the same %,d-line ruleset, fresh netns):"
                        + " not done within %s%n", coldStart, ruleset.lines().count(), limits.firstSync());
            }
            System.out.printf("network programming latency over %d changes (%d syncs in all): p50 %d ms, p99 %d ms, max %d ms%n",
                    ms.size(), j.syncs(), pct(ms, 0.50), pct(ms, 0.99), ms.isEmpty() ? -1 : ms.getLast());
            List<Long> share = new ArrayList<>(j.agentShares().stream().map(Duration::toMillis).toList());
            Collections.sort(share);
            System.out.printf("  of which journaled to programmed (fold, sync): p50 %d ms, p99 %d ms, max %d ms%n", pct(share, 0.50),
                    pct(share, 0.99), share.isEmpty() ? -1 : share.getLast());
            System.out.printf("RSS: %d MB after the first sync (%s), %d MB after the changes, peak %d MB (%.1f s after launch;"
                    + " the first sync seen at %.1f s)%n", rssAfterStart >> 20, rssParts, rssAfterChanges >> 20, peakRss.get() >> 20,
                    (peakRssAt.get() - launchedNanos) / 1e9, (firstSyncSeen - launchedNanos) / 1e9);
            System.out.printf("agent CPU time (user + system) up to the first sync: %.2f s; AOT cache in use: %s%n", cpuAtStart,
                    aot ? "yes" : "no");
            System.out.println("agent log: " + agentLog);
            if (System.getenv("KPROXY_BENCH_RESTART") != null) {
                Path restartLog = Files.createTempFile("kproxy-bench-agent-", ".log");
                Instant relaunched = Instant.now();
                agent = launch(ns, journal, admin, restartLog, javaOpts);
                AgentRestart.measure(agent, restartLog, relaunched, journal, simIn, simOut, limits);
            }
        } finally {
            if (agent != null && agent.isAlive()) {
                agent.destroyForcibly();
            }
            if (sim != null) {
                sim.getOutputStream().close();
                if (!sim.waitFor(30, TimeUnit.SECONDS)) {
                    sim.destroyForcibly();
                }
            }
            run(List.of("ip", "netns", "del", ns), null);
            deleteTree(journal);
            deleteTree(admin);
        }
    }

    /** Starts {@code ./kproxy run} in {@code ns} against the simulator, its output to {@code log}. */
    static Process launch(String ns, Path journal, Path admin, Path log, String javaOpts) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("ip", "netns", "exec", ns, Path.of("kproxy").toAbsolutePath().toString(), "run",
                "--hostname-override", SyntheticObjects.NODE, "--master", "http://127.0.0.1:" + API_PORT, "--proxy-mode", "nftables",
                "--cluster-cidr", "10.0.0.0/8", "--journal-dir", journal.toString(), "--iptables-min-sync-period", "0s",
                "--healthz-bind-address", "127.0.0.1:10256", "--metrics-bind-address", "127.0.0.1:10249",
                "--admin-socket", admin.resolve("admin.sock").toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("KPROXY_SKIP_BUILD", "1");
        pb.environment().put("KPROXY_JAVA_OPTS", javaOpts);
        return pb.start();
    }

    static long pct(List<Long> sorted, double p) {
        return sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    static final String COMPACT_BEFORE = "decision=compact-heap reason=\"before a large full sync\"";
    static final String COMPACT_AFTER = "decision=compact-heap reason=\"after a large full sync\"";

    static void awaitLog(Path log, String text, Duration max, Process agent) throws Exception {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.readString(log).contains(text)) {
                return;
            }
            if (!agent.isAlive()) {
                throw new IllegalStateException("the agent exited; see " + log);
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no '" + text + "' within " + max + "; see " + log);
    }

    /** Samples {@code pid}'s RSS every 200 ms into {@code peak}, and the time of the peak (nanoTime) into {@code peakAt}. */
    private static void sampleRss(long pid, AtomicLong peak, AtomicLong peakAt, Process p) {
        while (p.isAlive()) {
            long now = rss(pid);
            if (now > peak.get()) {
                peak.set(now);
                peakAt.set(System.nanoTime());
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The anonymous, file-backed and shared parts of {@code pid}'s RSS ("" when gone). */
    private static String rssParts(long pid) {
        Map<String, Long> status = statusKb(pid);
        List<String> parts = new ArrayList<>();
        for (String field : List.of("RssAnon", "RssFile", "RssShmem")) {
            if (status.containsKey(field)) {
                parts.add(field.substring(3).toLowerCase(Locale.ROOT) + " " + (status.get(field) >> 10) + " MB");
            }
        }
        return String.join(", ", parts);
    }

    /** User plus system CPU time of {@code pid} so far, from /proc/{@code pid}/stat (clock ticks of 1/100 s; 0 when gone). */
    private static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Whether {@code pid} maps an AOT cache file ({@code ./kproxy}'s {@code kproxy.aot}). */
    private static boolean mapsAotCache(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "maps")).contains(".aot");
        } catch (IOException e) {
            return false;
        }
    }

    /** VmRSS of {@code pid} in bytes (0 when gone). */
    private static long rss(long pid) {
        return statusKb(pid).getOrDefault("VmRSS", 0L) * 1024;
    }

    /** The kB-valued fields of /proc/{@code pid}/status (empty when the process is gone). */
    private static Map<String, Long> statusKb(long pid) {
        Map<String, Long> fields = new HashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.endsWith(" kB")) {
                    fields.put(line.substring(0, colon), Long.parseLong(line.substring(colon + 1, line.length() - 3).trim()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return fields;
    }

    /** {@code jcmd <pid> <command...>} output (the JVM's own view of its memory, with -XX:NativeMemoryTracking). */
    private static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid)));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        // Each category's committed memory, and the peaks NMT keeps of its malloc and arena memory
        // (the JIT compilers' arenas peak during the first full sync and are gone by now).
        return out.lines().filter(l -> l.contains("committed") && !l.contains("(mmap:") && !l.contains("(malloc=") || l.contains("peak="))
                .limit(60).reduce("", (a, b) -> a + b + "\n");
    }

    /** The top of {@code jcmd <pid> GC.class_histogram} (a full GC first: live objects only). */
    private static String histogram(long pid) throws IOException, InterruptedException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid),
                "GC.class_histogram");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        List<String> lines = out.lines().toList();
        List<String> top = new ArrayList<>(lines.subList(0, Math.min(lines.size(), 28)));
        lines.stream().filter(l -> l.startsWith("Total")).findFirst().ifPresent(top::add);
        return String.join("\n", top);
    }

    /** Seconds {@code nft -f} took to load {@code ruleset} into a fresh namespace; empty when it did not end within {@code max}. */
    private static OptionalDouble nftFloor(String ruleset, Duration max) throws Exception {
        String ns = "kp-floor-" + Integer.toHexString(RANDOM.nextInt() & 0xFFFFFF);
        run(List.of("ip", "netns", "add", ns), null);
        try {
            long s = System.nanoTime();
            int rc = run(List.of("ip", "netns", "exec", ns, "nft", "-f", "-"), ruleset, max);
            if (rc == TIMED_OUT) {
                return OptionalDouble.empty();
            }
            if (rc != 0) {
                throw new IllegalStateException("nft -f refused the ruleset (exit " + rc + ")");
            }
            return OptionalDouble.of((System.nanoTime() - s) / 1e9);
        } finally {
            run(List.of("ip", "netns", "del", ns), null);
        }
    }

    /** {@link #run}'s answer for a command it ended because it outlived its limit. */
    private static final int TIMED_OUT = -1;

    private static int run(List<String> cmd, String stdin) throws IOException, InterruptedException {
        int rc = run(cmd, stdin, Duration.ofMinutes(2));
        if (rc == TIMED_OUT) {
            throw new IllegalStateException("timed out: " + cmd);
        }
        return rc;
    }

    /** Runs {@code cmd} with {@code stdin}; its exit code, or {@link #TIMED_OUT} (it is then killed) after {@code max}. */
    private static int run(List<String> cmd, String stdin, Duration max) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        CompletableFuture<Void> feed = CompletableFuture.runAsync(() -> {
            try (OutputStream in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // the process ended early; its exit code tells
            }
        });
        if (!p.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
            return TIMED_OUT;
        }
        feed.join();
        return p.exitValue();
    }

    static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
