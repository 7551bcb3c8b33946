package io.kproxy.sample.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.history.History;
import io.kproxy.history.Point;
import io.kproxy.history.Rendering;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * For every {@code SyncApplied} of a recorded run of the agent, rebuilding the ruleset from the
 * journal ({@code render --at} its time and {@code render --offset} its {@code uptoOffset})
 * gives the very ruleset the agent hashed. The nftables run is the committed sample (recorded by
 * the real engine; SampleClusterHourTest proves it is what the engine writes); the iptables run
 * is made here: the sample's source records are fed into a local journal that the real engine
 * tails with the iptables backend, and it appends its own sync records.
 */
class RecordedSyncsTest {

    @Test
    void everySyncOfTheNftablesSampleIsRebuiltExactly() {
        int checked = checkEverySync(Samples.CLUSTER_HOUR, "nftables");
        assertThat(checked).isGreaterThan(300);
    }

    @Test
    void everySyncOfAnIptablesRunOverTheSampleIsRebuiltExactly(@TempDir Path tmp) throws IOException {
        Path base = fastDir(tmp);
        Path dir = base.resolve("journal");
        List<TimedEvent> events = new ArrayList<>();
        // The engine's pacing from the configuration the sample was made with: a recorded tree is
        // history (it may hold fields a later version no longer binds), the fold reads it leniently.
        ProxyConfig config = ConfigLoader.load(SampleClusterGenerator.CONFIG.replace("mode: nftables", "mode: iptables"));
        for (Envelope e : Samples.records(Samples.CLUSTER_HOUR)) {
            if (e.event() instanceof SyncApplied || e.event() instanceof SyncFailed) {
                continue; // the engine under test appends its own
            }
            if (e.event() instanceof ConfigRecorded c) {
                Json.Obj tree = c.config().with("mode", Json.of("iptables"));
                events.add(new TimedEvent(e.recordedAt(), e.source(), new ConfigRecorded(c.node(), tree)));
            } else {
                events.add(new TimedEvent(e.recordedAt(), e.source(), e.event()));
            }
        }
        ManualScheduler time = new ManualScheduler(events.getFirst().at().minusSeconds(1));
        JournalOptions options = JournalOptions.defaults(dir).withClock(time.clock()).withFsyncWindow(Duration.ZERO);
        try {
            try (LocalJournal journal = LocalJournal.open(options);
                 Backend backend = BackendProvider.forMode("iptables").orElseThrow().create(new NowhereKernel(), new NowhereKernel())) {
                EngineReplay.run(events, journal, backend, EngineOptions.of(config), time, events.getLast().at().plusSeconds(5));
            }
            int checked = checkEverySync(dir, "iptables");
            assertThat(checked).isGreaterThan(300);
        } finally {
            if (!base.equals(tmp)) {
                delete(base);
            }
        }
    }

    /** Renders every SyncApplied by offset and by time; returns how many there were. */
    private static int checkEverySync(Path dir, String mode) {
        int n = 0;
        try (History h = History.open(dir)) {
            for (Envelope e : Samples.records(dir)) {
                if (!(e.event() instanceof SyncApplied s)) {
                    continue;
                }
                assertThat(s.backend()).isEqualTo(mode);
                Rendering byOffset = h.render(h.atOffset(s.uptoOffset()), Optional.of(mode));
                assertThat(byOffset.hash()).as("render --offset %d (sync generation %d at #%d)", s.uptoOffset(), s.generation(), e.offset())
                        .isEqualTo(s.rulesetHash());
                Point at = h.at(e.recordedAt());
                assertThat(at.sync()).as("the sync in force at %s", e.recordedAt()).contains(e);
                Rendering byTime = h.render(at, Optional.empty());
                assertThat(byTime.mode()).isEqualTo(mode);
                assertThat(byTime.matchesRecorded()).as("render --at %s", e.recordedAt()).contains(true);
                n++;
            }
        }
        return n;
    }

    /** A tmpfs directory when there is one (fsync is free there), else the test's. */
    private static Path fastDir(Path fallback) throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "kp-history-") : fallback;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
