package io.kproxy.history.damage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import io.kproxy.history.JournalReport;
import io.kproxy.history.Samples;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.JournalProblem.Kind;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog.Draft;
import io.kproxy.model.ServiceRef;
import io.kproxy.replay.StateLoader;
import io.kproxy.testkit.Directories;
import io.kproxy.testkit.ServiceFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The damaged journals of issue 18, on copies of events/samples/cluster-hour (segments #0..698,
 * #699..1338, #1339..1575; snapshots 499, 999, 1499).
 */
class DamagedSampleTest {

    private static final String NEWEST = "00000000000000001339.seg";

    @TempDir
    Path tmp;

    private Path copy() {
        return Directories.copy(Samples.CLUSTER_HOUR, tmp.resolve("journal"));
    }

    /** The ruleset the intact sample renders at {@code at}. */
    private static String intact(Instant at) {
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            return h.render(h.at(at), Optional.empty()).text();
        }
    }

    private static Instant timeOf(Path dir, long offset) {
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            return j.read(offset, 1).getFirst().recordedAt();
        }
    }

    /**
     * Defect 1 as reported: one bit at byte 40,000 of the newest segment. Before, recovery cut 133
     * acknowledged records, kept snapshot 1499, gave the cut offsets to new records, and the agent
     * then loaded snapshot 1499 and missed the new Services folded "before" it.
     */
    @Test
    void aBitFlipInTheNewestSegmentKeepsTheDamageAndNoSnapshotAheadOfItIsUsed() throws IOException {
        Path dir = copy();
        SmallJournal.damage(dir.resolve(NEWEST), 40_000, SmallJournal.Mutation.FLIP, 3);
        long lostFirst;
        long lostLast;
        List<Long> added = new ArrayList<>();
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            assertThat(j.tornTail()).as("corruption is not a torn tail").isEmpty();
            JournalProblem p = j.openProblems().stream().filter(q -> q.kind() == Kind.DAMAGED_RECORD).findFirst().orElseThrow();
            lostFirst = p.firstOffset();
            lostLast = p.lastOffset();
            assertThat(lostFirst).isBetween(1339L, 1575L);
            assertThat(lostLast).as("the lost range reaches past every record the segment can have held").isGreaterThanOrEqualTo(1575L);
            assertThat(j.openProblems()).anySatisfy(q -> assertThat(q.file()).isEqualTo("snapshots/00000000000000001499.snap"));
            assertThat(dir.resolve("snapshots/00000000000000001499.snap")).doesNotExist();
            assertThat(Files.size(dir.resolve(NEWEST))).as("the damaged bytes stay where they were").isEqualTo(
                    Files.size(Samples.CLUSTER_HOUR.resolve(NEWEST)));
            assertThat(j.nextOffset()).isEqualTo(lostLast + 1);
            List<Draft> drafts = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                drafts.add(new Draft("test", ServiceFixture.service("new", "svc-" + i).clusterIP("172.31.0." + (i + 1))
                        .port("http", 80, "TCP").resourceVersion("9" + i).observed()));
            }
            added.addAll(j.append(drafts).join());
            assertThat(added.getFirst()).as("no lost offset is given to a new record").isGreaterThan(lostLast);
            assertThat(j.snapshotAtOrBefore(j.nextOffset() - 1)).hasValueSatisfying(s -> assertThat(s.offset()).isLessThan(lostFirst));
            StateLoader.Loaded agent = StateLoader.latest(j, StateLoader.LostRecords.SKIP);
            assertThat(agent.snapshotOffset()).isEqualTo(999);
            assertThat(agent.lostRanges()).isEqualTo(1);
            assertThat(agent.state().offset()).isEqualTo(added.getLast());
            for (int i = 0; i < 80; i++) {
                assertThat(agent.state().cluster().services()).contains(new ServiceRef("new", "svc-" + i));
            }
            assertThatThrownBy(() -> StateLoader.latest(j)).hasMessageContaining(lostFirst + ".." + lostLast);
        }
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            assertThat(j.openProblems()).as("a restarted open reports the same damage")
                    .anySatisfy(q -> assertThat(q.firstOffset() + ".." + q.lastOffset()).isEqualTo(lostFirst + ".." + lostLast));
            assertThat(j.nextOffset()).isEqualTo(added.getLast() + 1);
        }
        JournalReport.Verification v = JournalReport.verify(dir);
        assertThat(v.sound()).isFalse();
        assertThat(v.text()).contains(lostFirst + ".." + lostLast);
        try (History h = History.open(dir)) {
            Instant before = timeOf(dir, 1200);
            assertThat(h.render(h.at(before), Optional.empty()).text()).as("history before the damage is served").isEqualTo(intact(before));
            Instant after = timeOf(dir, added.getLast());
            assertThatThrownBy(() -> h.render(h.at(after), Optional.empty())).isInstanceOf(HistoryException.class)
                    .hasMessageContaining(lostFirst + ".." + lostLast);
            assertThatThrownBy(() -> h.diff(h.at(before), h.at(after), Optional.empty())).isInstanceOf(HistoryException.class)
                    .hasMessageContaining(lostFirst + ".." + lostLast);
        }
    }

    /** A bit in the newest segment's header: before, recovery cut all 237 records. */
    @Test
    void aBitFlipInTheNewestHeaderLosesNothingSilently() throws IOException {
        Path dir = copy();
        SmallJournal.damage(dir.resolve(NEWEST), 9, SmallJournal.Mutation.FLIP, 0);
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            assertThat(j.tornTail()).isEmpty();
            assertThat(j.openProblems()).anySatisfy(p -> {
                assertThat(p.kind()).isEqualTo(Kind.BAD_HEADER);
                assertThat(p.firstOffset()).isEqualTo(1339);
            });
            assertThat(j.read(1338, 1)).hasSize(1);
            assertThat(j.nextOffset()).isGreaterThan(1575);
        }
        assertThat(JournalReport.verify(dir).sound()).isFalse();
    }

    /** Defect 2: the oldest segment deleted by hand, snapshot 499 left behind. */
    @Test
    void aDeletedOldestSegmentIsReportedAndRenderRefusesWhatNeedsIt() throws IOException {
        Path dir = copy();
        Instant early = timeOf(dir, 800);
        Instant late = timeOf(dir, 1550);
        Files.delete(dir.resolve("00000000000000000000.seg"));
        Files.delete(dir.resolve("00000000000000000000.idx"));
        JournalReport.Verification v = JournalReport.verify(dir);
        assertThat(v.sound()).isFalse();
        assertThat(v.text()).contains("MISSING_RECORDS").contains("500..698");
        try (History h = History.open(dir)) {
            assertThatThrownBy(() -> h.render(h.at(early), Optional.empty())).isInstanceOf(HistoryException.class)
                    .hasMessageMatching("(?s).*offsets \\d+\\.\\.698.*");
            assertThat(h.render(h.at(late), Optional.empty()).text()).isEqualTo(intact(late));
        }
    }

    /** A stray segment named far past the end: reported, skipped, and an agent appends at the real end. */
    @Test
    void aStraySegmentFarPastTheEndIsSetAsideAndAppendsContinueAtTheEnd() throws IOException {
        Path dir = copy();
        Files.write(dir.resolve("00000000000000099999.seg"), new byte[0]);
        Instant late = timeOf(dir, 1575);
        assertThat(JournalReport.verify(dir).text()).contains("STRAY_SEGMENT");
        try (History h = History.open(dir)) {
            assertThat(h.render(h.at(late), Optional.empty()).text()).isEqualTo(intact(late));
        }
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir))) {
            assertThat(j.nextOffset()).isEqualTo(1576);
            assertThat(j.append("test", new io.kproxy.events.SourceSynced(io.kproxy.events.ResourceKind.NODE, "1")).join()).isEqualTo(1576);
        }
        assertThat(dir.resolve("00000000000000099999.seg")).doesNotExist();
        assertThat(dir.resolve("quarantine/00000000000000099999.seg.stray")).exists();
    }

    /**
     * Two sealed segments swapped: each header names another base; none of their records is
     * served as another's, the records after them are, and no state is rebuilt across them.
     */
    @Test
    void swappedSegmentsAreReportedAndTheirRecordsNeverServedUnderOtherOffsets() throws IOException {
        Path dir = copy();
        Path a = dir.resolve("00000000000000000000.seg");
        Path b = dir.resolve("00000000000000000699.seg");
        Path t = dir.resolve("swap");
        Files.move(a, t);
        Files.move(b, a);
        Files.move(t, b);
        Files.delete(dir.resolve("00000000000000000000.idx"));
        Files.delete(dir.resolve("00000000000000000699.idx"));
        JournalReport.Verification v = JournalReport.verify(dir);
        assertThat(v.text()).contains("BAD_HEADER 00000000000000000000.seg").contains("BAD_HEADER 00000000000000000699.seg");
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            assertThatThrownBy(() -> j.read(0, 1)).hasMessageContaining("0..698");
            assertThat(j.read(1339, 10)).hasSize(10);
        }
        Instant late = timeOf(Samples.CLUSTER_HOUR, 1550);
        try (History h = History.open(dir)) {
            // snapshot 1499 was folded from the records before they were swapped: the state after them is served
            assertThat(h.render(h.at(late), Optional.empty()).text()).isEqualTo(intact(late));
            Instant early = timeOf(Samples.CLUSTER_HOUR, 800);
            assertThatThrownBy(() -> h.render(h.at(early), Optional.empty())).isInstanceOf(HistoryException.class)
                    .hasMessageContaining("..1338");
        }
    }
}
