package io.kproxy.engine;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.state.FoldedState;
import io.kproxy.state.SnapshotDecodeException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds folded state from a log: the newest snapshot at or before the wanted offset, then the
 * records after it (DESIGN.md §3: time travel never replays more than one snapshot interval).
 * Folding from a snapshot plus the suffix equals folding from the start (the state module's
 * invariant). Stateless; blocks on the log's I/O.
 */
public final class StateLoader {

    private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);
    private static final int PAGE = 1024;

    /**
     * A rebuilt state.
     *
     * @param state          the fold up to {@code state.offset()}
     * @param snapshotOffset the offset of the snapshot it started from, -1 when it folded from the log's start
     */
    public record Loaded(FoldedState state, long snapshotOffset) {
    }

    private StateLoader() {
    }

    /** The fold of every record the log holds now. */
    public static Loaded latest(EventLog log) {
        return at(log, log.nextOffset() - 1);
    }

    /**
     * The fold of every record up to and including {@code offset} (clamped to the log's end).
     * A snapshot that cannot be decoded (written by a newer version, or damaged) is skipped in
     * favour of an older one, with a warning.
     */
    public static Loaded at(EventLog log, long offset) {
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
        long folded = 0;
        while (from <= end) {
            List<Envelope> page = log.read(from, (int) Math.min(PAGE, end - from + 1));
            if (page.isEmpty()) {
                break;
            }
            for (Envelope e : page) {
                state = state.apply(e).state();
                folded++;
            }
            from = page.getLast().offset() + 1;
        }
        LOG.info("decision=state-loaded offset={} snapshot_offset={} records_folded={}", state.offset(), snapshotOffset, folded);
        return new Loaded(state, snapshotOffset);
    }
}
