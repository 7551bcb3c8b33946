package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.replay.StateLoader;
import io.kproxy.state.FoldedState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link StateLoader} (as time travel uses it) gives the fold from the start at every offset, from any snapshot, skipping one it cannot decode. */
class RebuildTest {

    @Test
    void everyOffsetOfTheSampleEqualsTheFoldFromTheStart() {
        try (LocalJournal j = LocalJournal.openReadOnly(Samples.CLUSTER_HOUR)) {
            List<FoldedState> oneByOne = foldEach(j);
            long seed = new Random().nextLong();
            Random r = new Random(seed);
            List<Long> replayed = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                long offset = i < 4 ? List.of(0L, 499L, 500L, j.nextOffset() - 1).get(i) : r.nextLong(j.nextOffset());
                FoldedState want = oneByOne.get((int) offset);
                FoldedState got = StateLoader.at(j, offset, (done, total) -> replayed.add(done)).state();
                assertThat(got).as("seed %d, offset %d", seed, offset).isEqualTo(want);
                assertThat(got.node()).as("seed %d, offset %d: node", seed, offset).isEqualTo(want.node());
                long from = r.nextLong(offset + 1);
                FoldedState forward = StateLoader.forward(j, oneByOne.get((int) from), offset, StateLoader.Progress.NONE);
                assertThat(forward).as("seed %d, %d forward to %d", seed, from, offset).isEqualTo(want);
                assertThat(forward.node()).as("seed %d, %d forward to %d: node", seed, from, offset).isEqualTo(want.node());
            }
            assertThat(replayed).as("progress is reported").isNotEmpty();
        }
    }

    @Test
    void aSnapshotThatCannotBeDecodedIsSkippedForAnOlderOne() {
        TestLog l = TestLog.threeServices();
        MemoryEventLog log = l.log;
        List<FoldedState> oneByOne = foldEach(log);
        log.storeSnapshot(4, oneByOne.get(4).toSnapshot());
        log.storeSnapshot(7, new byte[] {(byte) 0x7f, 1, 2, 3}); // a format from the future
        long last = log.nextOffset() - 1;
        assertThat(StateLoader.at(log, last).state()).isEqualTo(oneByOne.get((int) last));
        assertThat(StateLoader.at(log, 6).state()).isEqualTo(oneByOne.get(6));
        assertThat(StateLoader.at(log, 3).state()).isEqualTo(oneByOne.get(3));
        assertThat(StateLoader.at(log, last + 100).state()).as("clamped to the log's end").isEqualTo(oneByOne.get((int) last));
    }

    private static List<FoldedState> foldEach(io.kproxy.journal.spi.EventLog log) {
        List<FoldedState> out = new ArrayList<>();
        FoldedState s = FoldedState.initial();
        for (long from = 0; from < log.nextOffset(); from += 500) {
            for (Envelope e : log.read(from, 500)) {
                s = s.apply(e).state();
                out.add(s);
            }
        }
        return out;
    }
}
