package io.kproxy.demo;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Where each replayed record landed in the demo's journal: the engine's own sync records
 * interleave with the replay, so the n-th record of the history is not at offset n. Filled as
 * appends complete; read by the prober to tell which change of the Service a sync programmed.
 * Thread-safe; never blocks.
 */
final class Offsets {

    private final History history;
    private final AtomicLongArray offsets;

    Offsets(History history) {
        this.history = history;
        this.offsets = new AtomicLongArray(history.records().size());
        for (int i = 0; i < offsets.length(); i++) {
            offsets.set(i, -1);
        }
    }

    void landed(int index, long offset) {
        offsets.set(index, offset);
    }

    /** The journal offset of the {@code index}-th record, -1 until its append completed. */
    long of(int index) {
        return offsets.get(index);
    }

    /**
     * The change that started the breakage a sync up to journal offset {@code upto} shows: the
     * change after the last healthy one at or below {@code upto}.
     */
    Optional<History.Change> breakageStartAtOrBefore(long upto) {
        History.Change lastGood = null;
        for (History.Change c : history.changes()) {
            long o = offsets.get(c.index());
            if (o >= 0 && o <= upto && c.healthy()) {
                lastGood = c;
            }
        }
        return lastGood == null ? Optional.empty() : history.after(lastGood);
    }

    /** The last change of the probed Service whose record is at or below journal offset {@code upto}. */
    Optional<History.Change> lastChangeAtOrBefore(long upto) {
        History.Change last = null;
        for (History.Change c : history.changes()) {
            long o = offsets.get(c.index());
            if (o >= 0 && o <= upto) {
                last = c;
            }
        }
        return Optional.ofNullable(last);
    }
}
