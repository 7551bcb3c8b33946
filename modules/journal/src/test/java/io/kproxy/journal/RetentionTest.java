package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.spi.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retention by age and size, never past the newest snapshot, never the active segment. */
class RetentionTest {

    @TempDir
    Path tmp;

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));

    private JournalOptions options(RetentionPolicy policy) {
        return JournalOptions.defaults(tmp.resolve("j")).withSegmentBytes(4096).withIndexIntervalBytes(512).withFsyncWindow(Duration.ZERO)
                .withClock(clock).withRetention(policy);
    }

    private void fill(LocalJournal j, long from, int n) {
        for (long i = from; i < from + n; i += 10) {
            clock.advance(Duration.ofMinutes(1));
            j.append(Fixtures.drafts(i, 10)).join();
        }
    }

    @Test
    void ageRetentionWaitsForASnapshotAndNeverPassesIt() throws Exception {
        try (LocalJournal j = LocalJournal.open(options(RetentionPolicy.keepAll().withMaxAge(Duration.ofHours(1))))) {
            fill(j, 0, 300);
            clock.advance(Duration.ofHours(5));
            assertThat(j.enforceRetention()).as("no snapshot: nothing may go").isZero();
            assertThat(j.firstOffset()).isZero();

            j.storeSnapshot(20, new byte[] {20});
            j.storeSnapshot(50, new byte[] {50});
            j.storeSnapshot(120, new byte[] {120});
            int deleted = j.enforceRetention();
            assertThat(deleted).isPositive();
            long first = j.firstOffset();
            assertThat(first).as("records after the newest snapshot stay").isBetween(1L, 121L);
            assertThat(JournalFiles.segments(j.directory())).first().satisfies(p -> assertThat(JournalFiles.base(p)).isEqualTo(first));
            try (var files = Files.list(j.directory())) {
                assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".idx"))
                        .allMatch(n -> Long.parseLong(n.substring(0, 20)) >= first)).isTrue();
            }
            List<Envelope> rest = j.read(0, Integer.MAX_VALUE);
            assertThat(rest.getFirst().offset()).isEqualTo(first);
            assertThat(rest.getLast().offset()).isEqualTo(299);
            assertThat(j.snapshotAtOrBefore(299)).map(Snapshot::offset).hasValue(120L);
            assertThat(j.snapshotAtOrBefore(60)).as("snapshots no retained record follows are gone")
                    .isEmpty();
            assertThat(j.offsetAt(Instant.EPOCH)).hasValue(first);
        }
        try (LocalJournal j = LocalJournal.open(options(RetentionPolicy.keepAll()))) {
            assertThat(j.firstOffset()).isPositive();
            assertThat(j.openProblems()).isEmpty();
            assertThat(JournalInspector.of(j).verify()).isEmpty();
        }
    }

    @Test
    void youngRecordsStayUnderAgeRetention() {
        try (LocalJournal j = LocalJournal.open(options(RetentionPolicy.keepAll().withMaxAge(Duration.ofHours(1))))) {
            fill(j, 0, 300); // 30 minutes of history
            j.storeSnapshot(299, new byte[0]);
            assertThat(j.enforceRetention()).isZero();
            clock.advance(Duration.ofMinutes(45)); // the first segments are now older than an hour, the last ones not
            assertThat(j.enforceRetention()).isPositive();
            Envelope oldest = j.read(0, 1).getFirst();
            assertThat(Duration.between(oldest.recordedAt(), clock.instant())).isLessThanOrEqualTo(Duration.ofMinutes(76));
        }
    }

    @Test
    void sizeRetentionRunsOnRollAndKeepsTheActiveSegment() {
        try (LocalJournal j = LocalJournal.open(options(RetentionPolicy.keepAll().withMaxBytes(12_000)))) {
            fill(j, 0, 200);
            j.storeSnapshot(199, new byte[0]);
            fill(j, 200, 200); // rolls apply retention on the writer thread
            // over the size limit, but only segments wholly covered by the snapshot (offsets <= 199) may go
            List<SegmentInfo> kept = JournalInspector.of(j).segments();
            assertThat(kept.stream().mapToLong(SegmentInfo::bytes).sum()).isGreaterThan(12_000);
            assertThat(j.firstOffset()).isPositive().isLessThanOrEqualTo(200);
            assertThat(kept.getFirst().lastOffset()).isGreaterThanOrEqualTo(200);
            j.storeSnapshot(399, new byte[0]);
            j.enforceRetention();
            List<SegmentInfo> segs = JournalInspector.of(j).segments();
            assertThat(segs.getLast().sealed()).isFalse();
            assertThat(segs.stream().mapToLong(SegmentInfo::bytes).sum()).isLessThanOrEqualTo(12_000);
            assertThat(j.read(j.firstOffset(), Integer.MAX_VALUE).getLast().offset()).isEqualTo(399);
        }
    }
}
