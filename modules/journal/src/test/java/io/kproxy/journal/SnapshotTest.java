package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.JournalProblem.Kind;
import io.kproxy.journal.spi.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Snapshots: the newest at or before an offset, durable, damage-tolerant (the log stays the truth). */
class SnapshotTest {

    @TempDir
    Path tmp;

    private JournalOptions options() {
        return JournalOptions.defaults(tmp.resolve("j")).withSegmentBytes(4096).withFsyncWindow(Duration.ZERO)
                .withClock(new MutableClock(Instant.parse("2025-01-01T00:00:00Z")));
    }

    @Test
    void findsTheNewestSnapshotAtOrBeforeAnOffsetAcrossReopens() {
        try (LocalJournal j = LocalJournal.open(options())) {
            assertThat(j.snapshotAtOrBefore(10)).isEmpty();
            j.append(Fixtures.drafts(0, 100)).join();
            j.storeSnapshot(10, new byte[] {1});
            j.storeSnapshot(40, new byte[] {4});
            j.storeSnapshot(40, new byte[] {4, 4}); // replaces
            j.storeSnapshot(90, new byte[] {9});
            assertThat(j.snapshotAtOrBefore(9)).isEmpty();
            assertThat(j.snapshotAtOrBefore(10)).hasValue(new Snapshot(10, new byte[] {1}));
            assertThat(j.snapshotAtOrBefore(89)).hasValue(new Snapshot(40, new byte[] {4, 4}));
            assertThat(j.snapshotAtOrBefore(Long.MAX_VALUE)).map(Snapshot::offset).hasValue(90L);
        }
        try (LocalJournal j = LocalJournal.open(options())) {
            assertThat(j.snapshotAtOrBefore(50)).hasValue(new Snapshot(40, new byte[] {4, 4}));
        }
    }

    @Test
    void aDamagedSnapshotIsSkippedForAnOlderOneAndReported() throws Exception {
        Path snaps;
        try (LocalJournal j = LocalJournal.open(options())) {
            j.append(Fixtures.drafts(0, 100)).join();
            j.storeSnapshot(10, new byte[] {1, 2, 3});
            j.storeSnapshot(50, new byte[1000]);
            snaps = j.directory().resolve("snapshots");
        }
        JournalFiles.flipBit(snaps.resolve(String.format("%020d.snap", 50)), 500, 1);
        Files.write(snaps.resolve(String.format("%020d.snap.tmp", 70)), new byte[] {1}); // an interrupted store
        try (JournalInspector in = JournalInspector.open(tmp.resolve("j"))) {
            assertThat(in.verify()).singleElement().satisfies(p -> {
                assertThat(p.kind()).isEqualTo(Kind.SNAPSHOT_DAMAGED);
                assertThat(p.file()).isEqualTo("snapshots/" + String.format("%020d.snap", 50));
                assertThat(p.detail()).contains("checksum");
            });
        }
        try (LocalJournal j = LocalJournal.open(options())) {
            assertThat(j.snapshotAtOrBefore(60)).hasValue(new Snapshot(10, new byte[] {1, 2, 3}));
        }
        assertThat(Files.exists(snaps.resolve(String.format("%020d.snap.tmp", 70)))).as("leftover removed").isFalse();
    }

    @Test
    void aSnapshotBeyondTheEndOfTheLogIsIgnored() {
        Path dir = tmp.resolve("j");
        try (LocalJournal j = LocalJournal.open(options())) {
            for (int i = 0; i < 5; i++) {
                j.append(Fixtures.drafts(i * 10, 10)).join();
            }
            j.storeSnapshot(20, new byte[] {2});
            j.storeSnapshot(49, new byte[] {4});
        }
        Path last = JournalFiles.segments(dir).getLast();
        JournalFiles.truncate(last, JournalFiles.frames(last).getFirst()[1] + 1); // a damaged tail takes records 49 covered
        try (LocalJournal j = LocalJournal.open(options())) {
            assertThat(j.nextOffset()).isLessThan(49);
            assertThat(j.openProblems()).anySatisfy(p -> assertThat(p.kind()).isEqualTo(Kind.SNAPSHOT_BEYOND_END));
            assertThat(j.snapshotAtOrBefore(Long.MAX_VALUE)).map(Snapshot::offset).hasValue(20L);
        }
    }
}
