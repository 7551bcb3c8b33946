package io.kproxy.bench.history;

import io.kproxy.events.Envelope;
import io.kproxy.events.EventType;
import io.kproxy.history.History;
import io.kproxy.history.Point;
import io.kproxy.history.Rendering;
import io.kproxy.journal.JournalInspector;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.LogPages;
import io.kproxy.state.FoldedState;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Time travel with the fold, through the API operators use ({@code kproxy render --at} is
 * {@link History#open}, {@link History#at}, {@link History#render}): the state of a
 * {@link ChurnJournal} (by default 1,000,000 records of a 10,000-Service × 5-endpoint cluster with
 * real snapshots every engine-default 10,000 records) at a random time, and in the worst case just
 * before the next snapshot, each query on a fresh {@code History} so that nothing is reused
 * between queries. Prints p50 / p90 / max of opening, resolving the time, rebuilding the state
 * (snapshot decode + fold of the records after it) and rendering it. With {@code --cold N} it also
 * runs N worst-case queries each in a fresh JVM with the CLI's JVM flags (what an operator's
 * one-shot command costs, JIT cold).
 *
 * <pre>
 * java -cp ... io.kproxy.bench.history.TimeTravelFoldBench [--records 1000000] [--services 10000] [--endpoints 5]
 *     [--snapshot-interval 0 (the engine's default)] [--changes-per-second 20] [--seed 7] [--samples 20] [--renders 5]
 *     [--warmup 3] [--cold 3] [--dir /tmp]
 * </pre>
 */
public final class TimeTravelFoldBench {

    private static final List<String> CLI_JVM_FLAGS = List.of("-XX:+UseSerialGC", "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=30", "-XX:-ShrinkHeapInSteps",
            "-XX:+UseStringDeduplication", "-XX:MetaspaceSize=64m", "-XX:ReservedCodeCacheSize=48m", "-Xss512k");

    /** One query's phases, in milliseconds, and how many records it folded after the snapshot. */
    record Sample(double open, double at, double state, double render, long folded) {
        double total() {
            return open + at + state;
        }
    }

    private TimeTravelFoldBench() {
    }

    public static void main(String[] args) {
        Map<String, String> o = options(args);
        ChurnJournal.Params p = new ChurnJournal.Params(intOpt(o, "services", 10_000), intOpt(o, "endpoints", 5),
                intOpt(o, "records", 1_000_000), Long.parseLong(o.getOrDefault("snapshot-interval", "0")),
                Double.parseDouble(o.getOrDefault("changes-per-second", "20")), Long.parseLong(o.getOrDefault("seed", "7")));
        Path parent = Path.of(o.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        ChurnJournal.Built j = ChurnJournal.cached(parent, p);
        if (o.containsKey("single")) {
            Sample s = query(j.dir(), Instant.parse(o.get("single")), j.snapshots(), true, Boolean.parseBoolean(o.get("engine-loader")));
            System.out.printf("SINGLE %.1f %.1f %.1f %.1f %d%n", s.open(), s.at(), s.state(), s.render(), s.folded());
            return;
        }
        System.out.printf("journal %s: %s (%s)%n", j.dir(), j.reused() ? "reused from the cache" : "built in " + j.buildTime().toSeconds()
                + " s", describe(j));
        SplittableRandom rnd = new SplittableRandom(p.seed());
        Times times = Times.of(j);
        int warmup = intOpt(o, "warmup", 3);
        int samples = intOpt(o, "samples", 20);
        int renders = intOpt(o, "renders", 5);
        for (int i = 0; i < warmup; i++) {
            query(j.dir(), times.random(rnd), j.snapshots(), i == 0, false);
            Instant t = times.beforeSnapshot(rnd);
            query(j.dir(), t, j.snapshots(), false, false);
            query(j.dir(), t, j.snapshots(), false, true);
        }
        List<Sample> random = new ArrayList<>();
        List<Sample> worst = new ArrayList<>();
        List<Sample> worstEngine = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            random.add(query(j.dir(), times.random(rnd), j.snapshots(), i < renders, false));
            Instant t = times.beforeSnapshot(rnd);
            worst.add(query(j.dir(), t, j.snapshots(), i < renders, false));
            worstEngine.add(query(j.dir(), t, j.snapshots(), false, true));
        }
        report("random time", random);
        report("worst case: just before the next snapshot", worst);
        report("same points, a fold step per record (the fold before applyAll)", worstEngine);
        int cold = intOpt(o, "cold", 3);
        if (cold > 0) {
            List<Sample> fresh = new ArrayList<>();
            List<Sample> freshEngine = new ArrayList<>();
            for (int i = 0; i < cold; i++) {
                Instant t = times.beforeSnapshot(rnd);
                fresh.add(coldQuery(args, t, false));
                freshEngine.add(coldQuery(args, t, true));
            }
            report("worst case, each in a fresh JVM (CLI flags, JIT cold)", fresh);
            report("same, a fold step per record", freshEngine);
        }
    }

    /**
     * One query on a fresh History: open, resolve the time, rebuild the state, and (when asked)
     * render it. With {@code engineLoader} the state is rebuilt one fold step per record
     * ({@link #perRecord}: how the engine and History rebuilt before {@code applyAll}), for an A/B
     * under the same load.
     */
    static Sample query(Path dir, Instant time, List<Long> snapshots, boolean render, boolean engineLoader) {
        long t0 = System.nanoTime();
        try (History h = History.open(dir); LocalJournal other = engineLoader ? LocalJournal.openReadOnly(dir) : null) {
            long t1 = System.nanoTime();
            Point point = h.at(time);
            long t2 = System.nanoTime();
            FoldedState state = engineLoader ? perRecord(other, point.offset()) : h.state(point.offset());
            long t3 = System.nanoTime();
            double renderMs = Double.NaN;
            if (render) {
                Rendering r = h.render(point, Optional.empty());
                renderMs = (System.nanoTime() - t3) / 1e6;
                if (r.text().isEmpty()) {
                    throw new IllegalStateException("empty ruleset at " + time);
                }
            }
            if (state.offset() != point.offset()) {
                throw new IllegalStateException("state at #" + state.offset() + ", asked #" + point.offset());
            }
            return new Sample((t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, renderMs, point.offset() - snapshotAtOrBefore(snapshots,
                    point.offset()));
        }
    }

    /** The newest snapshot at or before {@code offset}, then {@code FoldedState.apply} per record (the baseline). */
    static FoldedState perRecord(LocalJournal log, long offset) {
        FoldedState s = log.snapshotAtOrBefore(offset).map(snap -> FoldedState.fromSnapshot(snap.data())).orElseGet(FoldedState::initial);
        LogPages pages = LogPages.refusing(log, s.offset() + 1, offset, 1024);
        while (pages.hasNext()) {
            for (Envelope e : pages.next()) {
                s = s.apply(e).state();
            }
        }
        return s;
    }

    private static Sample coldQuery(String[] args, Instant time, boolean engineLoader) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(CLI_JVM_FLAGS);
        cmd.add("--sun-misc-unsafe-memory-access=allow");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(TimeTravelFoldBench.class.getName());
        Collections.addAll(cmd, args);
        cmd.add("--single");
        cmd.add(time.toString());
        cmd.add("--engine-loader");
        cmd.add(Boolean.toString(engineLoader));
        try {
            Process proc = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String line;
            Sample s = null;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                while ((line = r.readLine()) != null) {
                    if (line.startsWith("SINGLE ")) {
                        String[] f = line.split(" ");
                        s = new Sample(Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                                Double.parseDouble(f[4]), Long.parseLong(f[5]));
                    }
                }
            }
            if (proc.waitFor() != 0 || s == null) {
                throw new IllegalStateException("the cold query failed: " + String.join(" ", cmd));
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static long snapshotAtOrBefore(List<Long> snapshots, long offset) {
        int i = Collections.binarySearch(snapshots, offset);
        int at = i >= 0 ? i : -i - 2;
        return at >= 0 ? snapshots.get(at) : -1;
    }

    private static void report(String what, List<Sample> samples) {
        System.out.printf("%s (%d queries; ms: p50 / p90 / max)%n", what, samples.size());
        line("  open", samples.stream().mapToDouble(Sample::open).toArray());
        line("  at(time)", samples.stream().mapToDouble(Sample::at).toArray());
        line("  state (snapshot + fold)", samples.stream().mapToDouble(Sample::state).toArray());
        line("  total: open + at + state", samples.stream().mapToDouble(Sample::total).toArray());
        line("  render (nftables)", samples.stream().mapToDouble(Sample::render).filter(d -> !Double.isNaN(d)).toArray());
        line("  records folded", samples.stream().mapToDouble(Sample::folded).toArray());
    }

    private static void line(String name, double[] values) {
        if (values.length == 0) {
            return;
        }
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        System.out.printf("%-28s %9.1f %9.1f %9.1f%n", name, pct(v, 50), pct(v, 90), v[v.length - 1]);
    }

    static double pct(double[] sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }

    private static String describe(ChurnJournal.Built j) {
        try (LocalJournal l = LocalJournal.openReadOnly(j.dir())) {
            Instant first = l.read(0, 1).getFirst().recordedAt();
            Instant last = l.read(l.nextOffset() - 1, 1).getFirst().recordedAt();
            Map<EventType, Long> types = JournalInspector.of(l).countByType(first, last.plusMillis(1));
            return l.nextOffset() + " records over " + Duration.between(first, last).toMinutes() + " min, " + j.snapshots().size()
                    + " snapshots (" + j.snapshots().getFirst() + ", " + (j.snapshots().size() > 1 ? j.snapshots().get(1) + ", ..." : "")
                    + "); " + types;
        }
    }

    /** The times queries ask for. */
    record Times(Instant firstSync, Instant last, List<Instant> beforeSnapshots) {

        static Times of(ChurnJournal.Built j) {
            try (LocalJournal l = LocalJournal.openReadOnly(j.dir())) {
                Instant firstSync = null;
                LogPages pages = LogPages.refusing(l, 0, l.nextOffset() - 1, 4096);
                while (firstSync == null && pages.hasNext()) {
                    for (Envelope e : pages.next()) {
                        if (e.event() instanceof io.kproxy.events.SyncApplied) {
                            firstSync = e.recordedAt();
                            break;
                        }
                    }
                }
                if (firstSync == null) {
                    throw new IllegalStateException("no sync in " + j.dir());
                }
                // just before the next snapshot: the last millisecond before the snapshot's record, for every
                // snapshot but the first (whose interval starts at the log's start)
                List<Instant> before = new ArrayList<>();
                for (int k = 1; k < j.snapshots().size(); k++) {
                    before.add(l.read(j.snapshots().get(k), 1).getFirst().recordedAt().minusMillis(1));
                }
                return new Times(firstSync, l.read(l.nextOffset() - 1, 1).getFirst().recordedAt(), List.copyOf(before));
            }
        }

        Instant random(SplittableRandom rnd) {
            return firstSync.plusMillis(rnd.nextLong(Duration.between(firstSync, last).toMillis() + 1));
        }

        Instant beforeSnapshot(SplittableRandom rnd) {
            return beforeSnapshots.get(rnd.nextInt(beforeSnapshots.size()));
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("options are --name value pairs: " + String.join(" ", args));
            }
            o.put(args[i].substring(2), args[++i]);
        }
        return o;
    }

    private static int intOpt(Map<String, String> o, String name, int dflt) {
        return Integer.parseInt(o.getOrDefault(name, Integer.toString(dflt)));
    }
}
