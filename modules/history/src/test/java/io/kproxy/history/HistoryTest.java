package io.kproxy.history;

import static io.kproxy.history.TestLog.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.replay.StateLoader;
import io.kproxy.state.FoldedState;
import io.kproxy.testkit.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Points: what a time or an offset resolves to, and the journal's range as the only limit. */
class HistoryTest {

    /** threeServices (offsets 0..9), a sync of #9 at 00:00:04, a change (#11) at 00:00:10, a failed sync, then a good one. */
    private static TestLog withSyncs() {
        TestLog l = TestLog.threeServices();
        String first;
        try (History h = History.of(l.log)) {
            first = h.render(h.atOffset(9), Optional.empty()).hash();
        }
        l.at("00:00:04", new SyncApplied("nftables", 1, 9, SyncKind.FULL, first, Duration.ofMillis(3)));
        l.at("00:00:10", TestLog.webSlice("23", "10.0.1.11", "10.0.1.13").observed());
        l.at("00:00:10.500", new SyncFailed("nftables", 2, 11, SyncKind.PARTIAL, "nft: Could not process rule", true, Duration.ofMillis(1)));
        String second;
        try (History h = History.of(l.log)) {
            second = h.render(h.atOffset(11), Optional.empty()).hash();
        }
        l.at("00:00:12", new SyncApplied("nftables", 3, 11, SyncKind.FULL, second, Duration.ofMillis(3)));
        return l;
    }

    @Test
    void aTimeResolvesToTheStateOfTheLastSyncRecordedByThen() {
        TestLog l = withSyncs();
        try (History h = History.of(l.log)) {
            Point early = h.at(t("00:00:03.500"));
            assertThat(early.basis()).isEqualTo(Point.Basis.NOTHING_PROGRAMMED);
            assertThat(early.offset()).isEqualTo(9);
            Point first = h.at(t("00:00:05"));
            assertThat(first.basis()).isEqualTo(Point.Basis.PROGRAMMED);
            assertThat(first.offset()).isEqualTo(9);
            assertThat(first.applied().orElseThrow().generation()).isEqualTo(1);
            Point failing = h.at(t("00:00:11"));
            assertThat(failing.offset()).as("the kernel kept generation 1's rules").isEqualTo(9);
            assertThat(failing.describe()).endsWith("; then sync generation 2 failed at 2026-01-01T00:00:10.500Z (the kernel kept these rules)");
            Point later = h.at(t("00:00:12"));
            assertThat(later.offset()).isEqualTo(11);
            assertThat(later.failure()).isEmpty();
            assertThat(h.desiredAt(t("00:00:10")).offset()).isEqualTo(11);
            assertThat(h.render(later, Optional.empty()).matchesRecorded()).contains(true);
            assertThat(h.render(first, Optional.empty()).text()).contains("10.0.1.12 . 8080").doesNotContain("10.0.1.13");
            assertThat(h.render(failing, Optional.empty()).summary()).contains("equals the one the sync recorded");
        }
    }

    @Test
    void aRecordedHashThatDiffersIsSaid() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:04", new SyncApplied("nftables", 1, 9, SyncKind.FULL, "0123456789abcdef", Duration.ofMillis(3)));
        try (History h = History.of(l.log)) {
            Rendering r = h.render(h.at(t("00:00:05")), Optional.empty());
            assertThat(r.matchesRecorded()).contains(false);
            assertThat(r.summary()).contains("differs from the recorded 0123456789ab");
            assertThat(h.render(h.at(t("00:00:05")), Optional.of("iptables")).matchesRecorded()).as("another mode: nothing to compare").isEmpty();
        }
    }

    @Test
    void aJournalWhoseModeHasNoBackendAsksForOne() {
        TestLog l = new TestLog();
        l.at("00:00:00", new ConfigRecorded(new NodeName(TestLog.NODE), Json.obj("mode", Json.of("ipvs"))));
        try (History h = History.of(l.log)) {
            assertThatThrownBy(() -> h.render(h.atOffset(0), Optional.empty())).isInstanceOfSatisfying(HistoryException.class,
                    e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.BAD_ARGUMENT))
                    .hasMessage("the journal's mode: no backend for mode ipvs (installed: iptables, nftables); choose one with --mode");
            assertThat(h.render(h.atOffset(0), Optional.of("nftables")).text()).startsWith("add table ip kube-proxy");
        }
    }

    @Test
    void theJournalsRangeIsTheOnlyLimit() {
        TestLog l = withSyncs();
        try (History h = History.of(l.log)) {
            assertThatThrownBy(() -> h.at(t("00:00:00").minusMillis(1))).isInstanceOfSatisfying(HistoryException.class,
                    e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.NOT_IN_JOURNAL))
                    .hasMessage("2025-12-31T23:59:59.999Z is before the journal starts: it holds #0..#13 (2026-01-01T00:00:00.000Z .. "
                            + "2026-01-01T00:00:12.000Z)");
            assertThatThrownBy(() -> h.atOffset(14)).hasMessageStartingWith("offset 14 is past the journal's end: it holds #0..#13");
            assertThatThrownBy(() -> h.atOffset(-1)).hasMessageStartingWith("offset -1 is before the first record");
            assertThat(h.at(t("23:00:00")).offset()).as("after the end: the last sync").isEqualTo(11);
        }
        try (History empty = History.of(new MemoryEventLog())) {
            assertThatThrownBy(() -> empty.at(t("00:00:01"))).hasMessage("the journal holds no records");
        }
    }

    @Test
    void aTornTailIsAWarningTheRecordsBeforeItStillAnswerAndLaterTimesAreRefused(@TempDir Path tmp) throws IOException {
        Path copy = Directories.copy(Samples.CLUSTER_HOUR, tmp.resolve("j"));
        Files.write(copy.resolve("00000000000000001339.seg"), new byte[] {0, 0, 1, 0, 7, 7, 7}, StandardOpenOption.APPEND);
        try (History h = History.open(copy)) {
            assertThat(h.warnings()).singleElement().asString().startsWith("the journal ends in an incomplete record (TORN_TAIL ");
            assertThat(h.render(h.at(Instant.parse("2026-11-22T03:50:00Z")), Optional.empty()).matchesRecorded()).contains(true);
            // the torn record was accepted at or after the last complete one: a time from then on may need it
            assertThatThrownBy(() -> h.at(Instant.parse("2026-11-22T04:05:00Z"))).isInstanceOfSatisfying(HistoryException.class,
                    e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.UNREADABLE)).hasMessageContaining("offsets 1576..?");
        }
    }

    @Test
    void stateAtAnyOffsetEqualsTheFoldFromTheNearestSnapshotWhateverTheOrderOfQuestions() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        try (History h = History.open(Samples.CLUSTER_HOUR); LocalJournal j = LocalJournal.openReadOnly(Samples.CLUSTER_HOUR)) {
            long last = j.nextOffset() - 1;
            for (int i = 0; i < 12; i++) {
                long offset = r.nextLong(last + 1);
                FoldedState want = StateLoader.at(j, offset).state();
                assertThat(h.state(offset)).as("seed %d, offset %d", seed, offset).isEqualTo(want);
                assertThat(h.state(offset).node()).as("seed %d, offset %d: node", seed, offset).isEqualTo(want.node());
            }
        }
    }
}
