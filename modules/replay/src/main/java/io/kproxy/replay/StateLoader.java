package io.kproxy.replay;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
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
 * records after it (docs/design.md, "The event log": time travel never replays more than one
 * snapshot interval). Folding from a snapshot plus the suffix equals folding from the start (the
 * state module's invariant). The records are folded in batches of up to {@link #BATCH} by
 * {@link FoldedState#applyAll}, which projects each touched Service once per batch and computes
 * no delta: a restart, a pin and a time-travel question each want one state, not the steps to it
 * (docs/benchmarks.md, "Time travel with the fold"). Stateless; blocks on the log's I/O; throws
 * what the log throws.
 *
 * <p>Where the log lost records (damage, a deleted segment: docs/operations.md, "Damaged
 * journal"), the caller chooses ({@link LostRecords}): time travel and rollback refuse, since a
 * state folded without records is not the state the records describe; the agent's start folds
 * every record still served, steps over each lost range with a warning, and lets its source's
 * relist append the difference to the API server (the snapshot the log hands out is never ahead
 * of the intact records, see {@link EventLog#snapshotAtOrBefore}).
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
     * @param resumeAt       where a tail continues after this state: {@code state.offset() + 1},
     *                       or past lost records the load stepped over after it ({@link LostRecords#SKIP})
     * @param lostRanges     how many ranges of lost records the load stepped over (0 unless {@link LostRecords#SKIP})
     */
    public record Loaded(FoldedState state, long snapshotOffset, long resumeAt, int lostRanges) {
    }

    /** What a load does where the log cannot serve records it needs. */
    public enum LostRecords {
        /**
         * Fail with the log's {@link EventLogException.Kind#CORRUPT} error naming the offsets: for
         * time travel and rollback, whose answer would silently be another state.
         */
        REFUSE,
        /**
         * Fold every record still served and step over lost ranges (one warning each): for the
         * agent's start, which relists right after and appends what differs from this state.
         */
        SKIP
    }

    /** Told after each folded batch how many of the records to fold are done. May be called from the loading thread only. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (done, total) -> { };

        void replayed(long done, long total);
    }

    private StateLoader() {
    }

    /** The fold of every record the log holds now; refuses lost records. */
    public static Loaded latest(EventLog log) {
        return latest(log, LostRecords.REFUSE);
    }

    /** The fold of every record the log holds now, doing {@code lost} where records are lost. */
    public static Loaded latest(EventLog log, LostRecords lost) {
        return at(log, log.nextOffset() - 1, Progress.NONE, lost);
    }

    /** {@link #at(EventLog, long, Progress)} without progress. */
    public static Loaded at(EventLog log, long offset) {
        return at(log, offset, Progress.NONE);
    }

    /**
     * The fold of every record up to and including {@code offset} (clamped to the log's end).
     * A snapshot that cannot be decoded (written by a newer version, or damaged) is skipped in
     * favour of an older one, with a warning.
     *
     * @throws EventLogException {@link EventLogException.Kind#CORRUPT} naming the offsets when the
     *         fold would need records the log lost, or that retention or a deleted file removed
     */
    public static Loaded at(EventLog log, long offset, Progress progress) {
        return at(log, offset, progress, LostRecords.REFUSE);
    }

    private static Loaded at(EventLog log, long offset, Progress progress, LostRecords lost) {
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
        long first = log.firstOffset();
        int lostBefore = 0;
        if (from < first && from <= end) {
            if (lost == LostRecords.REFUSE) {
                throw new EventLogException("offsets " + from + ".." + (first - 1) + " are not in the journal (it starts at " + first
                        + ") and no snapshot covers them: the state at offset " + end + " cannot be rebuilt", from, first - 1);
            }
            LOG.warn("decision=fold-from-first-offset first_offset={} reason=\"no usable snapshot covers the records before it\"", first);
            from = first;
            lostBefore = 1;
        }
        long[] reached = {from, 0};
        FoldedState loaded = fold(log, state, from, end, progress, lost, reached);
        LOG.info("decision=state-loaded offset={} snapshot_offset={} records_folded={} resume_at={}", loaded.offset(), snapshotOffset,
                Math.max(0, loaded.offset() - from + 1), Math.max(loaded.offset() + 1, reached[0]));
        return new Loaded(loaded, snapshotOffset, Math.max(loaded.offset() + 1, reached[0]), (int) reached[1] + lostBefore);
    }

    /** {@code from} folded forward with the records after it up to {@code offset} (clamped to the log's end); refuses lost records. */
    public static FoldedState forward(EventLog log, FoldedState from, long offset, Progress progress) {
        return fold(log, from, from.offset() + 1, Math.min(offset, log.nextOffset() - 1), progress, LostRecords.REFUSE, new long[2]);
    }

    /** Folds {@code [next, end]} onto {@code start}; {@code reached[0]} is set to the offset after the last record read or stepped over, {@code reached[1]} counts the lost ranges stepped over. */
    private static FoldedState fold(EventLog log, FoldedState start, long next, long end, Progress progress, LostRecords lost,
                                    long[] reached) {
        LogPages pages = lost == LostRecords.REFUSE ? LogPages.refusing(log, next, end, PAGE)
                : LogPages.skipping(log, next, end, PAGE, e -> LOG.warn("decision=skip-lost-records first={} last={} reason=\"{}\"",
                        e.lostFirst(), e.lostLast(), e.getMessage().replace('"', '\'')));
        FoldedState s = start;
        List<Envelope> batch = new ArrayList<>();
        while (pages.hasNext()) {
            batch.addAll(pages.next());
            if (batch.size() >= BATCH) {
                s = applyBatch(s, batch, start, end, progress);
                batch = new ArrayList<>();
            }
        }
        if (!batch.isEmpty()) {
            s = applyBatch(s, batch, start, end, progress);
        }
        reached[0] = pages.position();
        reached[1] = pages.lostRanges();
        return s;
    }

    private static FoldedState applyBatch(FoldedState s, List<Envelope> batch, FoldedState start, long end, Progress progress) {
        FoldedState folded = s.applyAll(batch);
        progress.replayed(folded.offset() - start.offset(), end - start.offset());
        return folded;
    }
}
