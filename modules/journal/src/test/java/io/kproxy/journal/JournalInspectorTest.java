package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.EventCodec;
import io.kproxy.events.EventType;
import io.kproxy.events.Envelope;
import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.JournalProblem.Kind;
import io.kproxy.journal.local.RecordFrame;
import io.kproxy.journal.spi.EventLogException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalInspectorTest {

    @TempDir
    Path tmp;

    Path dir;
    List<Envelope> all;

    @BeforeEach
    void write() {
        dir = tmp.resolve("j");
        MutableClock clock = new MutableClock(Instant.parse("2025-07-01T00:00:00Z"));
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withSegmentBytes(5000).withFsyncWindow(Duration.ZERO).withClock(clock))) {
            for (int i = 0; i < 240; i += 6) {
                clock.advance(Duration.ofSeconds(7));
                j.append(Fixtures.drafts(i, 6)).join();
            }
            all = j.read(0, Integer.MAX_VALUE);
        }
    }

    @Test
    void listsSegmentsWithOffsetsTimesAndSizes() throws Exception {
        try (JournalInspector in = JournalInspector.open(dir)) {
            List<SegmentInfo> segs = in.segments();
            assertThat(segs).hasSize(JournalFiles.segments(dir).size());
            long expected = 0;
            for (SegmentInfo s : segs) {
                assertThat(s.firstOffset()).isEqualTo(expected);
                assertThat(s.name()).isEqualTo(String.format("%020d.seg", s.firstOffset()));
                assertThat(s.bytes()).isEqualTo(Files.size(dir.resolve(s.name())));
                assertThat(s.firstTime()).isEqualTo(all.get((int) s.firstOffset()).recordedAt());
                assertThat(s.lastTime()).isEqualTo(all.get((int) s.lastOffset()).recordedAt());
                assertThat(s.sealed()).isEqualTo(s != segs.getLast());
                expected = s.lastOffset() + 1;
            }
            assertThat(expected).isEqualTo(all.size());
            assertThat(in.verify()).isEmpty();
        }
    }

    @Test
    void countsByTypeInATimeRange() {
        Random rnd = new Random(7);
        try (JournalInspector in = JournalInspector.open(dir)) {
            for (int k = 0; k < 30; k++) {
                Instant from = all.get(rnd.nextInt(all.size())).recordedAt().plusMillis(rnd.nextInt(3) - 1);
                Instant to = from.plusSeconds(rnd.nextInt(120));
                Map<EventType, Long> want = new EnumMap<>(EventType.class);
                for (Envelope e : all) {
                    if (!e.recordedAt().isBefore(from) && e.recordedAt().isBefore(to)) {
                        want.merge(e.event().type(), 1L, Long::sum);
                    }
                }
                assertThat(in.countByType(from, to)).as("[%s, %s)", from, to).isEqualTo(want);
            }
            assertThat(in.countByType(Instant.MIN, Instant.MAX).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(all.size());
        }
    }

    @Test
    void verifyReportsAnUndecodableRecordWithASoundChecksum() throws Exception {
        Path seg = JournalFiles.segments(dir).get(1);
        long[] frame = JournalFiles.frames(seg).get(2);
        int len = (int) (frame[1] - frame[0] - RecordFrame.HEADER);
        byte[] garbage = new byte[len];
        new Random(3).nextBytes(garbage);
        garbage[0] = 1; // right format version, then nonsense
        garbage[1] = 3;
        ByteBuffer b = ByteBuffer.allocate(len + RecordFrame.HEADER);
        RecordFrame.put(b, garbage);
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
            ch.write(b.flip(), frame[0]);
        }
        long offset = JournalFiles.base(seg) + 2;
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.verify()).anySatisfy(p -> {
                assertThat(p.kind()).isEqualTo(Kind.UNDECODABLE_RECORD);
                assertThat(p.firstOffset()).isEqualTo(offset);
                assertThat(p.file()).isEqualTo(seg.getFileName().toString());
            });
        }
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            assertThatThrownBy(() -> ro.read(0, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class)
                    .hasMessageContaining("offset " + offset).hasMessageContaining("cannot be decoded");
            assertThat(ro.read(0, (int) offset)).hasSize((int) offset);
        }
        assertThat(EventCodec.CURRENT_VERSION).isEqualTo(1);
    }

    @Test
    void verifyReportsAMissingSegmentAsAGapAndReadingStopsThere() throws Exception {
        Path gone = JournalFiles.segments(dir).get(2);
        long firstMissing = JournalFiles.base(gone);
        long nextBase = JournalFiles.base(JournalFiles.segments(dir).get(3));
        Files.delete(gone);
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.verify()).anySatisfy(p -> {
                assertThat(p.kind()).isEqualTo(Kind.OFFSET_GAP);
                assertThat(p.firstOffset()).isEqualTo(firstMissing);
                assertThat(p.lastOffset()).isEqualTo(nextBase - 1);
            });
        }
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            assertThatThrownBy(() -> ro.read(0, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class)
                    .hasMessageContaining("starts at " + nextBase);
        }
    }
}
