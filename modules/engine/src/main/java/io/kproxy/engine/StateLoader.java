package io.kproxy.engine;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.state.FoldedState;
import io.kproxy.state.SnapshotDecodeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds folded state from a log: the newest snapshot at or before the wanted offset, then the
 * records after it (DESIGN.md §3: time travel never replays more than one snapshot interval).
 * Folding from a snapshot plus the suffix equals folding from the start (the state module's
 * invariant). The records are folded in batches of up to {@link #BATCH} by
 * {@link FoldedState#applyAll}, which projects each touched Service once per batch and computes
 * no delta: a restart, a pin and a time-travel question each want one state, not the steps to it
 * (docs/benchmarks.md, "Time travel with the fold"). Stateless; blocks on the log's I/O; throws
 * what the log throws.
 */
public final class StateLoader {

    private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);
    private static final int PAGE = 1024;
    /**
     * Records folded in one {@link FoldedState#applyAll}: more than the default snapshot interval,
     * so that a state is one batch after its snapshot; about 25 MB of decoded records held at most.
     */
    static final int BATCH = 16 * PAGE;

    /**
     * A rebuilt state.
     *
     * @param state          the fold up to {@code state.offset()}
     * @param snapshotOffset the offset of the snapshot it started from, -1 when it folded from the log's start
     */
    public record Loaded(FoldedState state, long snapshotOffset) {
    }

    /** Told after each folded batch how many of the records to fold are done. May be called from the loading thread only. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (done, total) -> { };

        void replayed(long done, long total);
    }

    private StateLoader() {
    }

    /** The fold of every record the log holds now. */
    public static Loaded latest(EventLog log) {
        return at(log, log.nextOffset() - 1, Progress.NONE);
    }

    /** {@link #at(EventLog, long, Progress)} without progress. */
    public static Loaded at(EventLog log, long offset) {
        return at(log, offset, Progress.NONE);
    }

    /**
     * The fold of every record up to and including {@code offset} (clamped to the log's end).
     * A snapshot that cannot be decoded (written by a newer version, or damaged) is skipped in
     * favour of an older one, with a warning.
     */
    public static Loaded at(EventLog log, long offset, Progress progress) {
        long end = Math.min(offset, log.nextOffset() - 1);
        FoldedState state = FoldedState.initial();
        long snapshotOffset = -1;
        long probe = end;
        while (probe >= 0) {
            Optional<Snapshot> snap = log.snapshotAtOrBefore(probe);
            if (snap.isEmpty()) {
                break;
            }
            try {
                state = FoldedState.fromSnapshot(snap.get().data());
                snapshotOffset = snap.get().offset();
                break;
            } catch (SnapshotDecodeException e) {
                LOG.warn("decision=skip-snapshot offset={} reason=\"{}\"", snap.get().offset(), e.getMessage());
                probe = snap.get().offset() - 1;
            }
        }
        long from = state.offset() + 1;
        if (snapshotOffset < 0 && log.firstOffset() > 0) {
            LOG.warn("decision=fold-from-first-offset first_offset={} reason=\"no usable snapshot and retention removed the log's start\"",
                    log.firstOffset());
            from = log.firstOffset();
        }
        FoldedState loaded = fold(log, state, from, end, progress);
        LOG.info("decision=state-loaded offset={} snapshot_offset={} records_folded={}", loaded.offset(), snapshotOffset,
                Math.max(0, loaded.offset() - from + 1));
        return new Loaded(loaded, snapshotOffset);
    }

    /** {@code from} folded forward with the records after it up to {@code offset} (clamped to the log's end). */
    public static FoldedState forward(EventLog log, FoldedState from, long offset, Progress progress) {
        return fold(log, from, from.offset() + 1, Math.min(offset, log.nextOffset() - 1), progress);
    }

    private static FoldedState fold(EventLog log, FoldedState start, long next, long end, Progress progress) {
        FoldedState s = start;
        long at = next;
        while (at <= end) {
            List<Envelope> batch = new ArrayList<>();
            while (at <= end && batch.size() < BATCH) {
                List<Envelope> page = log.read(at, (int) Math.min(PAGE, end - at + 1));
                if (page.isEmpty()) {
                    break;
                }
                batch.addAll(page);
                at = page.getLast().offset() + 1;
            }
            if (batch.isEmpty()) {
                break;
            }
            s = s.applyAll(batch);
            progress.replayed(s.offset() - start.offset(), end - start.offset());
        }
        return s;
    }
}
