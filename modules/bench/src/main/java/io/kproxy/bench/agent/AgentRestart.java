package io.kproxy.bench.agent;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The restart half of {@link AgentScaleBench} ({@code KPROXY_BENCH_RESTART}): the agent, stopped
 * after its changes, is started again on the same journal with the kernel still programmed, as a
 * DaemonSet restarts a node agent. Measures launch to the end of its first sync (the state rebuilt
 * from the journal and the API server's lists, the tables taken over: docs/backends/nftables.md,
 * deviation 3), what that sync wrote (its log line: kind and operations), and the network
 * programming latency of a second round of changes. Blocks; not thread-safe.
 */
final class AgentRestart {

    private AgentRestart() {
    }

    static void measure(Process agent, Path log, Instant launched, Path journal, PrintWriter simIn, SimulatorOutput simOut,
            RunLimits limits) throws Exception {
        AgentScaleBench.awaitLog(log, "decision=synced", limits.firstSync(), agent);
        if (Files.readString(log).contains(AgentScaleBench.COMPACT_BEFORE)) {
            AgentScaleBench.awaitLog(log, AgentScaleBench.COMPACT_AFTER, limits.compaction(), agent);
        }
        // Changes start once both large kinds are watched again: this mock, unlike an API server,
        // does not replay to a watch what changed after its resourceVersion (WatchFromVersionDispatcher).
        Instant watching = Instant.EPOCH;
        for (String kind : List.of("SERVICE", "ENDPOINT_SLICE")) {
            watching = max(watching, awaitBack(log, kind, limits.firstSync(), agent));
        }
        Instant changesFrom = Instant.now();
        simIn.println("GO");
        simOut.await("DONE", limits.changes());
        Thread.sleep(3_000); // the last changes' syncs
        agent.destroy();
        agent.waitFor(60, TimeUnit.SECONDS);

        JournalLatency j = JournalLatency.read(journal, log, changesFrom);
        System.out.printf("restart (same journal, kernel programmed): launch to the end of the first sync %.2f s;"
                + " to both watches back (resumed or listed) %.2f s%n", Duration.between(launched, j.firstSync()).toMillis() / 1000.0,
                Duration.between(launched, watching).toMillis() / 1000.0);
        List<String> lines = Files.readAllLines(log);
        for (String line : lines) {
            if (line.contains("nftables take-over") || line.contains("decision=state-loaded") || line.contains("decision=synced")) {
                System.out.println("  " + line.substring(line.indexOf("level=")));
                if (line.contains("decision=synced")) {
                    break;
                }
            }
        }
        for (String line : lines) {
            // how the source came back: watches resumed from the journal's position, or lists
            if (line.contains("decision=resume-point") || line.contains("decision=resumed") || line.contains("decision=listed")
                    || line.contains("decision=list-all") || line.contains("after=resume")) {
                System.out.println("  " + line.substring(line.indexOf("level=")));
            }
        }
        List<Long> ms = new ArrayList<>(j.latencies().stream().map(Duration::toMillis).toList());
        Collections.sort(ms);
        System.out.printf("  then network programming latency over %d changes: p50 %d ms, p99 %d ms, max %d ms%n", ms.size(),
                AgentScaleBench.pct(ms, 0.50), AgentScaleBench.pct(ms, 0.99), ms.isEmpty() ? -1 : ms.getLast());
        System.out.println("  agent log: " + log);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** Waits for {@code kind}'s watch to be back (its {@code decision=resumed} or {@code decision=listed} line); that line's time. */
    private static Instant awaitBack(Path log, String kind, Duration max, Process agent) throws Exception {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : Files.readAllLines(log)) {
                if (line.contains("decision=resumed kind=" + kind + " ") || line.contains("decision=listed kind=" + kind + " ")) {
                    return Instant.parse(line.substring(0, line.indexOf(' ')));
                }
            }
            if (!agent.isAlive()) {
                throw new IllegalStateException("the agent exited; see " + log);
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("no resumed or listed " + kind + " within " + max + "; see " + log);
    }
}
