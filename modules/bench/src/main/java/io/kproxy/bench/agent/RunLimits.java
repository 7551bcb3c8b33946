package io.kproxy.bench.agent;

import java.time.Duration;

/**
 * What one {@link AgentScaleBench} run at {@code services} Services may take: heaps and time
 * limits that grow with the size, each bounded, so that the harness is not what stops a run at
 * 100,000 Services and a stuck run still ends. The numbers come from the runs in
 * docs/benchmarks.md ("Agent end to end", "Scale: 1,000 to 100,000 Services"). Up to about
 * 29,000 Services the agent keeps the launcher's serial collector, with a heap of 64 MB and
 * 11.5 KB per Service × 5 endpoints, at least 192 MB: 1.7 to 2.3 times its live set at the first
 * sync (85 MB at 10,000, 224 MB at 30,000); a larger cap only lets the serial collector grow the
 * heap further on the initial list's promotions before its first full collection, which is where
 * the RSS peak is ("Sixth pass"). From a heap of {@value #PARALLEL_FROM_MB} MB it gets the
 * parallel collector instead, with 145 MB and 8.8 KB per Service (409 MB at 30,000, 1,025 MB at
 * 100,000) and a young generation of up to an eighth of it, sized at a seventh of the old one
 * ({@code -XX:MaxNewSize}, {@code -XX:NewRatio=7}): at 100,000 the serial collector paused the
 * agent for 29 s of its 90 s cold start and 16 s of its 38 s restart, the parallel one (two
 * threads, fewer and shorter young collections) for 11 s and 8 s, with the cold start at 68 s
 * and the RSS peak under 1.5 GB; at 10,000 it gained nothing and raised the peak past 300 MB
 * ("Eighth pass"). With it, no string deduplication ({@code -XX:-UseStringDeduplication}, which
 * the launcher turns on): at 100,000 its table held 65-77 MB of native memory and its thread took
 * CPU from the render, so the first sync cost 110-128 s of CPU instead of 136-157 s, the RSS after
 * it was 958-1,185 MB instead of 1,207-1,392 MB, its peak 1,330-1,348 MB instead of 1,396-1,664 MB,
 * and a restart took 16.1-18.9 s instead of 22.4-28.0 s; at 30,000 it changed nothing measurable
 * ("Twelfth pass"). The simulator holds about 450 MB at 100,000 (its objects' JSON and the
 * mock's keys); the agent's first sync at 30,000 once took 8-9 minutes in the kernel.
 *
 * @param agentHeapMb      the agent's {@code -Xmx} when {@code KPROXY_JAVA_OPTS} does not say
 * @param simulatorHeapMb  {@link ClusterSimulator}'s {@code -Xmx}
 * @param simulatorReady   from the simulator's start to its {@code READY} (load and warm-up)
 * @param firstSync        from the agent's launch to the end of its first sync; also the floor's limit
 * @param compaction       for the heap collection after a large first sync
 * @param changes          for a round of changes at {@code rate} per second to be sent
 */
record RunLimits(int agentHeapMb, int simulatorHeapMb, Duration simulatorReady, Duration firstSync, Duration compaction,
        Duration changes) {

    /** The heap from which the agent runs the parallel collector instead of the serial one. */
    static final int PARALLEL_FROM_MB = 400;

    RunLimits {
        if (agentHeapMb < 64 || simulatorHeapMb < 64) {
            throw new IllegalArgumentException("heaps under 64 MB: " + agentHeapMb + ", " + simulatorHeapMb);
        }
        for (Duration d : new Duration[] {simulatorReady, firstSync, compaction, changes}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("a limit is not positive: " + d);
            }
        }
    }

    /** The limits for {@code services} Services and {@code changes} changes at {@code rate} per second. */
    static RunLimits forSize(int services, int changes, int rate) {
        if (services < 1 || changes < 0 || rate < 1) {
            throw new IllegalArgumentException("services=" + services + " changes=" + changes + " rate=" + rate);
        }
        long n = services;
        long serialHeap = 64 + n * 1_152 / 100_000;
        int agentHeap = serialHeap < PARALLEL_FROM_MB ? (int) Math.max(serialHeap, 192)
                : Math.clamp(145 + n * 880 / 100_000, PARALLEL_FROM_MB, 3_072);
        return new RunLimits(
                agentHeap,
                Math.clamp(512 + n * 15 / 1_000, 1_024, 8_192),
                Duration.ofSeconds(Math.clamp(120 + n * 3 / 1_000, 120, 1_800)),
                Duration.ofSeconds(Math.clamp(n * 36 / 1_000, 600, 7_200)),
                Duration.ofSeconds(Math.clamp(n / 1_000, 30, 300)),
                Duration.ofSeconds(120 + 2L * changes / rate));
    }

    /**
     * The agent's JVM options: {@code configured} when set, else {@code -Xmx} for the size and, from
     * {@value #PARALLEL_FROM_MB} MB, the parallel collector with a young generation of up to an
     * eighth of the heap.
     */
    String agentJavaOpts(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String heap = "-Xmx" + agentHeapMb + "m";
        return agentHeapMb < PARALLEL_FROM_MB ? heap
                : heap + " -XX:-UseSerialGC -XX:+UseParallelGC -XX:MaxNewSize=" + agentHeapMb / 8 + "m -XX:NewRatio=7 -XX:-UseStringDeduplication";
    }
}
