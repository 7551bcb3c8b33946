package io.kproxy.sample.simulator;

import io.kproxy.backend.Backend;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.model.Json;
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
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Writes the sample history {@code events/samples/cluster-hour}: the {@link Scenario} (seed
 * {@value #SEED}) recorded by the real engine in nftables mode on virtual time ({@link EngineReplay}),
 * then copied record by record, with its times and snapshots, into a local journal of small
 * segments. Deterministic: the same records (offsets, times, sources, events) every time.
 * Blocks; writes only inside {@code dir}.
 */
public final class SampleClusterGenerator {

    public static final long SEED = 20_261_122L;
    /** Small segments so that the sample shows several (the default is 64 MiB). */
    public static final long SEGMENT_BYTES = 256 * 1024;

    /** The node's configuration: what {@code kproxy run} would record for it. */
    static final String CONFIG = """
            apiVersion: kubeproxy.config.k8s.io/v1alpha1
            kind: KubeProxyConfiguration
            mode: nftables
            hostnameOverride: demo-node
            clusterCIDR: 10.0.0.0/16,fd00:10::/48
            nftables:
              minSyncPeriod: 1s
              syncPeriod: 30s
            kproxy:
              serviceCIDRs: [172.30.0.0/16, "fd00:172:30::/112"]
              snapshotInterval: 500
            """;

    /** A documented moment of the sample and the record that holds it. */
    public record Moment(long offset, Instant at, String what, Envelope record) {
    }

    private SampleClusterGenerator() {
    }

    /**
     * Generates the sample into {@code dir}, which must not exist or be empty.
     *
     * @return the documented moments, in offset order
     */
    public static List<Moment> generate(Path dir) {
        ProxyConfig config = ConfigLoader.load(CONFIG);
        Json.Obj tree = ConfigTrees.toTree(config);
        Scenario.Script script = Scenario.write(SEED, tree);
        ManualScheduler time = new ManualScheduler(Scenario.START.minusSeconds(1));
        List<Envelope> records;
        List<Snapshot> snapshots;
        try (MemoryEventLog log = new MemoryEventLog(time.clock());
             Backend backend = BackendProvider.forMode("nftables")
                     .orElseThrow(() -> new IllegalStateException("the nftables backend is not installed"))
                     .create(new NowhereKernel(), new NowhereKernel())) {
            EngineReplay.run(script.events(), log, backend, EngineOptions.of(config), time, Scenario.END.plusSeconds(5));
            records = log.read(0, Integer.MAX_VALUE);
            snapshots = snapshots(log);
        }
        copy(records, snapshots, dir);
        return moments(script.moments(), records);
    }

    /** Every snapshot a log holds, oldest first. */
    static List<Snapshot> snapshots(EventLog log) {
        Deque<Snapshot> found = new ArrayDeque<>();
        Optional<Snapshot> s = log.snapshotAtOrBefore(log.nextOffset() - 1);
        while (s.isPresent()) {
            found.addFirst(s.get());
            s = s.get().offset() == 0 ? Optional.empty() : log.snapshotAtOrBefore(s.get().offset() - 1);
        }
        return List.copyOf(found);
    }

    /** Appends {@code records} to a new journal in {@code dir} at their own times, one append each, then the snapshots. */
    static void copy(List<Envelope> records, List<Snapshot> snapshots, Path dir) {
        try {
            if (Files.isDirectory(dir)) {
                try (var entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new IllegalArgumentException(dir + " is not empty");
                    }
                }
            }
            SettableClock clock = new SettableClock(records.isEmpty() ? Instant.EPOCH : records.getFirst().recordedAt());
            JournalOptions options = JournalOptions.defaults(dir).withClock(clock).withSegmentBytes(SEGMENT_BYTES)
                    .withFsyncWindow(Duration.ofMillis(2));
            try (LocalJournal journal = LocalJournal.open(options)) {
                List<CompletableFuture<Long>> appends = new ArrayList<>(records.size());
                for (Envelope e : records) {
                    clock.set(e.recordedAt());
                    appends.add(journal.append(e.source(), e.event()));
                }
                for (int i = 0; i < appends.size(); i++) {
                    long offset = appends.get(i).join();
                    if (offset != records.get(i).offset()) {
                        throw new IllegalStateException("record " + i + " got offset " + offset);
                    }
                }
                snapshots.forEach(s -> journal.storeSnapshot(s.offset(), s.data()));
            }
            Files.deleteIfExists(dir.resolve("journal.lock"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Moment> moments(List<Scenario.Moment> script, List<Envelope> records) {
        List<Moment> out = new ArrayList<>();
        out.add(new Moment(0, records.getFirst().recordedAt(), "the agent starts: its configuration", records.getFirst()));
        boolean first = true;
        for (Envelope e : records) {
            if (e.event() instanceof SourceSynced s && s.kind() == ResourceKind.ENDPOINT_SLICE) {
                out.add(new Moment(e.offset(), e.recordedAt(), "initial lists complete: nothing was programmed before", e));
            }
            if (e.event() instanceof SyncApplied s && (first || s.kind() == SyncKind.FULL)) {
                out.add(new Moment(e.offset(), e.recordedAt(), first ? "first sync: every Service programmed" : "the hourly full resync", e));
                first = false;
            }
        }
        for (Scenario.Moment m : script) {
            for (Envelope e : records) {
                if (e.event().equals(m.event())) {
                    out.add(new Moment(e.offset(), e.recordedAt(), m.what(), e));
                    if (!m.whenProgrammed().isEmpty()) {
                        programmed(records, e.offset()).filter(s -> out.stream().noneMatch(o -> o.offset() == s.offset()))
                                .ifPresent(s -> out.add(new Moment(s.offset(), s.recordedAt(), "programmed: " + m.whenProgrammed(), s)));
                    }
                    break;
                }
            }
        }
        out.sort((a, b) -> Long.compare(a.offset(), b.offset()));
        return List.copyOf(out);
    }

    /** The first SyncApplied whose uptoOffset covers {@code offset}. */
    private static Optional<Envelope> programmed(List<Envelope> records, long offset) {
        return records.stream().filter(e -> e.offset() > offset && e.event() instanceof SyncApplied s && s.uptoOffset() >= offset).findFirst();
    }

    /** A clock the copier sets to each record's time before appending it. Thread-safe. */
    private static final class SettableClock extends Clock {
        private volatile Instant now;

        SettableClock(Instant start) {
            this.now = start;
        }

        void set(Instant t) {
            now = t;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
