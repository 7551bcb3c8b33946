package io.kproxy.bench.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.EventType;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SyncApplied;
import io.kproxy.history.History;
import io.kproxy.journal.LocalJournal;
import io.kproxy.state.FoldedState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The churn journal is what the benchmark claims, its snapshots are real, and the harness runs (on a tiny journal). */
class TimeTravelFoldBenchSmokeTest {

    private static final ChurnJournal.Params TINY = new ChurnJournal.Params(40, 5, 3_000, 500, 20, 3);

    @Test
    void journalHoldsChurnSyncsAndSnapshotsAtTheEngineInterval(@TempDir Path tmp) {
        ChurnJournal.Built built = ChurnJournal.cached(tmp, TINY);
        assertThat(built.reused()).isFalse();
        assertThat(built.snapshots()).containsExactly(499L, 999L, 1499L, 1999L, 2499L, 2999L);
        Map<EventType, Integer> types = new EnumMap<>(EventType.class);
        try (LocalJournal j = LocalJournal.openReadOnly(built.dir())) {
            assertThat(j.nextOffset()).isEqualTo(3_000);
            Instant previous = Instant.MIN;
            long lastSyncUpto = -1;
            for (long from = 0; from < j.nextOffset(); from += 1000) {
                for (var e : j.read(from, 1000)) {
                    types.merge(e.event().type(), 1, Integer::sum);
                    assertThat(e.recordedAt()).isAfterOrEqualTo(previous);
                    previous = e.recordedAt();
                    if (e.event() instanceof SyncApplied s) {
                        assertThat(s.uptoOffset()).isLessThan(e.offset()).isGreaterThanOrEqualTo(lastSyncUpto);
                        lastSyncUpto = s.uptoOffset();
                    }
                }
            }
            // every snapshot equals the fold from the log's start up to it
            FoldedState folded = FoldedState.initial();
            for (long from = 0; from < j.nextOffset(); from += 1000) {
                for (var e : j.read(from, 1000)) {
                    folded = folded.apply(e).state();
                    if (e.offset() == 999 || e.offset() == 2999) {
                        FoldedState fromSnapshot = FoldedState.fromSnapshot(j.snapshotAtOrBefore(e.offset()).orElseThrow().data());
                        assertThat(fromSnapshot).isEqualTo(folded);
                    }
                }
            }
        }
        System.out.println("record types: " + types);
        assertThat(types.get(EventType.ENDPOINT_SLICE_OBSERVED)).isGreaterThan(2_000);
        assertThat(types.get(EventType.SERVICE_OBSERVED)).isGreaterThan(40 + 50);
        assertThat(types.get(EventType.SYNC_APPLIED)).isGreaterThan(50);
        assertThat(types).containsKeys(EventType.NODE_OBSERVED, EventType.CONFIG_RECORDED, EventType.SOURCE_SYNCED);

        assertThat(ChurnJournal.cached(tmp, TINY).reused()).isTrue();
    }

    @Test
    void queriesRebuildTheStateThroughHistory(@TempDir Path tmp) {
        ChurnJournal.Built built = ChurnJournal.cached(tmp, TINY);
        TimeTravelFoldBench.Times times = TimeTravelFoldBench.Times.of(built);
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 5; i++) {
            Instant before = times.beforeSnapshot(rnd);
            TimeTravelFoldBench.Sample worst = TimeTravelFoldBench.query(built.dir(), before, built.snapshots(), i == 0, false);
            assertThat(worst.folded()).isBetween(400L, 499L);
            assertThat(TimeTravelFoldBench.query(built.dir(), before, built.snapshots(), false, true).folded()).isEqualTo(worst.folded());
            TimeTravelFoldBench.Sample random = TimeTravelFoldBench.query(built.dir(), times.random(rnd), built.snapshots(), false, false);
            assertThat(random.folded()).isBetween(0L, 499L);
            assertThat(random.render()).isNaN();
            if (i == 0) {
                assertThat(worst.render()).isPositive();
            }
        }
        try (History h = History.open(built.dir())) {
            assertThat(h.state(h.at(times.last()).offset()).node().synced()).isTrue();
        }
    }

    @Test
    void churnMakesRealChangesAndPercentilesRankRight() {
        ChurnCluster c = new ChurnCluster(10, 5, 1);
        int slices = 0;
        int services = 0;
        for (int i = 0; i < 1_000; i++) {
            ClusterEvent e = c.churn(Instant.EPOCH);
            slices += e instanceof EndpointSliceObserved ? 1 : 0;
            services += e instanceof ServiceObserved ? 1 : 0;
        }
        assertThat(slices).isBetween(850, 950);
        assertThat(services).isBetween(50, 150).isEqualTo(1_000 - slices);
        double[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(TimeTravelFoldBench.pct(v, 50)).isEqualTo(5);
        assertThat(TimeTravelFoldBench.pct(v, 90)).isEqualTo(9);
        assertThat(TimeTravelFoldBench.snapshotAtOrBefore(List.of(9L, 19L), 18)).isEqualTo(9);
        assertThat(TimeTravelFoldBench.snapshotAtOrBefore(List.of(9L, 19L), 19)).isEqualTo(19);
        assertThat(TimeTravelFoldBench.snapshotAtOrBefore(List.of(9L, 19L), 3)).isEqualTo(-1);
    }
}
