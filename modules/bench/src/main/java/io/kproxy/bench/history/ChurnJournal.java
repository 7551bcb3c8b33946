package io.kproxy.bench.history;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog.Draft;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Writes the journal a node of a busy cluster records: its configuration and Node, the initial
 * lists of {@link ChurnCluster} and their barriers, then changes arriving as a Poisson process of
 * {@code changesPerSecond}, a {@code SyncApplied} for every sync a kube-proxy sync runner would run
 * ({@code minSyncPeriod} 1 s between the end of one sync and the start of the next, only when the
 * fold's delta is not empty, a full resync every hour), and the Node's five-minute status report.
 * Every record is folded as it is appended and, exactly as {@code Engine.maybeSnapshot} does, a
 * real snapshot ({@link FoldedState#toSnapshot}) is stored each time the fold has gone
 * {@link Params#snapshotInterval} records past the last one. Each record gets its own time (one
 * append per record). The syncs' ruleset hashes are not rendered (random 64-hex strings of the
 * right size): a render per sync would make the build take hours.
 *
 * <p>Journals are cached: {@link #cached} reuses a complete one under {@code java.io.tmpdir} keyed
 * by the parameters. Not thread-safe; blocks on I/O.
 */
final class ChurnJournal {

    static final Instant START = Instant.parse("2026-11-23T00:00:00Z");
    /** Changes to the generator bump this, so that older cached journals are not reused. */
    private static final int FORMAT = 1;
    private static final String COMPLETE = "BUILT";
    private static final String CONFIG = """
            apiVersion: kubeproxy.config.k8s.io/v1alpha1
            kind: KubeProxyConfiguration
            mode: nftables
            hostnameOverride: node-00
            clusterCIDR: 10.0.0.0/8
            nftables:
              minSyncPeriod: 1s
              syncPeriod: 30s
            kproxy:
              serviceCIDRs: [172.30.0.0/16]
            """;

    /**
     * What to build.
     *
     * @param snapshotInterval records between snapshots; {@code 0} takes the engine's default
     *                         ({@code EngineOptions.of(config)} of the recorded configuration)
     */
    record Params(int services, int endpoints, int records, long snapshotInterval, double changesPerSecond, long seed) {
        Params {
            if (services < 1 || endpoints < 1 || records < 2 * services + 10 || snapshotInterval < 0 || changesPerSecond <= 0) {
                throw new IllegalArgumentException("bad journal parameters");
            }
        }

        long interval() {
            return snapshotInterval > 0 ? snapshotInterval : EngineOptions.of(config()).snapshotInterval();
        }

        String key() {
            return "kproxy-bench-history-v" + FORMAT + "-s" + services + "-e" + endpoints + "-r" + records + "-i" + interval() + "-c"
                    + Math.round(changesPerSecond * 1000) + "-seed" + seed;
        }
    }

    /** A built journal: its directory and the offsets of its snapshots, in order. */
    record Built(Path dir, List<Long> snapshots, boolean reused, Duration buildTime) {
    }

    private ChurnJournal() {
    }

    static ProxyConfig config() {
        return ConfigLoader.load(CONFIG);
    }

    /** The journal for {@code p} under {@code parent}: reused when a complete one is there, else (re)built. */
    static Built cached(Path parent, Params p) {
        Path dir = parent.resolve(p.key());
        if (Files.exists(dir.resolve(COMPLETE))) {
            try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
                return new Built(dir, snapshotOffsets(j, p.interval()), true, Duration.ZERO);
            }
        }
        delete(dir);
        long t0 = System.nanoTime();
        List<Long> snaps = build(dir, p);
        write(dir.resolve(COMPLETE), "complete\n");
        return new Built(dir, snaps, false, Duration.ofNanos(System.nanoTime() - t0));
    }

    private static List<Long> snapshotOffsets(LocalJournal j, long interval) {
        List<Long> out = new java.util.ArrayList<>();
        long probe = j.nextOffset() - 1;
        while (probe >= 0) {
            var s = j.snapshotAtOrBefore(probe);
            if (s.isEmpty()) {
                break;
            }
            out.addFirst(s.get().offset());
            probe = s.get().offset() - 1;
        }
        return List.copyOf(out);
    }

    /** Writes the journal into {@code dir} (created); returns its snapshot offsets. */
    static List<Long> build(Path dir, Params p) {
        Writer w = new Writer(dir, p);
        try {
            w.run();
            return List.copyOf(w.snapshots);
        } finally {
            w.close();
        }
    }

    /** One build: the simulated cluster, sync runner and engine fold, and the journal they append to. */
    private static final class Writer {
        private final Params p;
        private final ManualClock clock = new ManualClock(START);
        private final LocalJournal journal;
        private final ChurnCluster cluster;
        private final SplittableRandom rnd;
        private final ArrayDeque<CompletableFuture<List<Long>>> inFlight = new ArrayDeque<>();
        private final ArrayDeque<Long> expected = new ArrayDeque<>();
        private final List<Long> snapshots = new java.util.ArrayList<>();
        private final long interval;
        private FoldedState state = FoldedState.initial();
        private long next;
        private long lastSnapshot = -1;
        // the sync runner: changes not yet synced since, and the sync in flight
        private Instant dirtySince;
        private Instant lastSyncEnd = Instant.MIN;
        private Instant lastFull;
        private Instant syncStarted;
        private Instant syncEnd;
        private long syncUpto;
        private SyncKind syncKind;
        private long generation;

        Writer(Path dir, Params p) {
            this.p = p;
            this.interval = p.interval();
            this.cluster = new ChurnCluster(p.services(), p.endpoints(), p.seed());
            this.rnd = new SplittableRandom(p.seed() * 31 + 7);
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            this.journal = LocalJournal.open(JournalOptions.defaults(dir).withFsyncWindow(Duration.ofMillis(2)).withClock(clock));
        }

        void run() {
            Instant t = START;
            append(t, "engine", new ConfigRecorded(new NodeName(ChurnCluster.NODE), ConfigTrees.toTree(config())));
            t = t.plusMillis(150);
            append(t, "source/kube", cluster.node(t));
            append(t.plusMillis(5), "source/kube", new SourceSynced(ResourceKind.NODE, "1"));
            t = t.plusMillis(300);
            for (int i = 0; i < cluster.services(); i++) {
                append(t.plusMillis(i / 20), "source/kube", cluster.service(i));
            }
            t = t.plusMillis(cluster.services() / 20 + 1);
            append(t, "source/kube", new SourceSynced(ResourceKind.SERVICE, "1"));
            t = t.plusMillis(50);
            for (int i = 0; i < cluster.services(); i++) {
                append(t.plusMillis(i / 20), "source/kube", cluster.slice(i, START));
            }
            t = t.plusMillis(cluster.services() / 20 + 1);
            append(t, "source/kube", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
            Instant nextChange = t.plusMillis(gap());
            Instant nextNode = START.plusSeconds(300);
            while (next < p.records()) {
                Instant syncStart = syncEnd == null ? syncStartAfter() : null;
                Instant now = earliest(nextChange, nextNode, syncEnd, syncStart);
                if (now.equals(syncEnd)) {
                    append(now, "engine", new SyncApplied("nftables", generation, syncUpto, syncKind, hash(),
                            Duration.between(syncStarted, now)));
                    lastSyncEnd = now;
                    syncEnd = null;
                } else if (now.equals(syncStart)) {
                    boolean full = lastFull == null || !now.isBefore(lastFull.plusSeconds(3600));
                    syncKind = full ? SyncKind.FULL : SyncKind.PARTIAL;
                    lastFull = full ? now : lastFull;
                    syncUpto = next - 1;
                    syncStarted = now;
                    generation++;
                    dirtySince = null;
                    // render + diff + apply: ~2.5 s for a full 10,000-Service nftables sync, tens of ms for a partial one
                    syncEnd = now.plusMillis(full ? 2_000 + rnd.nextInt(1_000) : 15 + rnd.nextInt(40));
                } else if (now.equals(nextNode)) {
                    append(now, "source/kube", cluster.node(now));
                    nextNode = now.plusSeconds(300);
                } else {
                    append(now, "source/kube", cluster.churn(now));
                    nextChange = now.plusMillis(gap());
                }
            }
            drain();
        }

        /** When the runner starts the next sync: at once after a change, but minSyncPeriod after the last one; hourly in any case. */
        private Instant syncStartAfter() {
            Instant hourly = lastFull == null ? null : lastFull.plusSeconds(3600);
            Instant onChange = dirtySince == null ? null : later(dirtySince, lastSyncEnd.plusSeconds(1));
            if (hourly == null) {
                return onChange;
            }
            return onChange == null || hourly.isBefore(onChange) ? later(hourly, lastSyncEnd.plusSeconds(1)) : onChange;
        }

        private void append(Instant at, String source, ClusterEvent event) {
            if (next >= p.records()) {
                return;
            }
            clock.set(at);
            inFlight.add(journal.append(List.of(new Draft(source, event))));
            expected.add(next);
            if (inFlight.size() >= 512) {
                settleOne();
            }
            FoldStep step = state.apply(new Envelope(next, at, source, event));
            FoldedState before = state;
            state = step.state();
            next++;
            if (state.node().synced() && (!step.delta().isEmpty() || !before.node().synced()) && dirtySince == null) {
                dirtySince = at;
            }
            if (state.offset() - lastSnapshot >= interval) {
                drain(); // the engine stores a snapshot of records the log holds
                journal.storeSnapshot(state.offset(), state.toSnapshot());
                lastSnapshot = state.offset();
                snapshots.add(lastSnapshot);
            }
        }

        private void settleOne() {
            long got = inFlight.poll().join().getFirst();
            long want = expected.poll();
            if (got != want) {
                throw new IllegalStateException("journal assigned offset " + got + ", the fold expected " + want);
            }
        }

        private void drain() {
            while (!inFlight.isEmpty()) {
                settleOne();
            }
        }

        private long gap() {
            return Math.max(1, Math.round(-Math.log(1 - rnd.nextDouble()) * 1000 / p.changesPerSecond()));
        }

        private String hash() {
            byte[] b = new byte[32];
            rnd.nextBytes(b);
            return HexFormat.of().formatHex(b);
        }

        void close() {
            journal.close();
        }
    }

    private static Instant earliest(Instant... times) {
        Instant min = null;
        for (Instant t : times) {
            if (t != null && (min == null || t.isBefore(min))) {
                min = t;
            }
        }
        return min;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path f, String text) {
        try {
            Files.writeString(f, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The journal's clock, set to each record's time before it is appended. */
    private static final class ManualClock extends Clock {
        private volatile Instant now;

        ManualClock(Instant start) {
            this.now = start;
        }

        void set(Instant t) {
            now = t;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
