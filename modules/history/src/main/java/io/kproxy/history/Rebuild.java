package io.kproxy.history;

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
 * Rebuilds the folded state at an offset for time travel, the way {@code engine.StateLoader}
 * does (the newest decodable snapshot at or before it, then the records after it; folding from a
 * snapshot plus the suffix equals folding from the start), but with the records folded in
 * batches of up to {@link #BATCH} by {@link FoldedState#applyAll}, which projects each touched
 * Service once per batch instead of once per record and computes no delta: a time-travel question
 * wants one state, not the engine's step-by-step deltas (docs/benchmarks.md, "Time travel with the
 * fold": it shortens the fold by about a third; decoding the snapshot on a second thread was
 * tried and gained nothing on two shared cores).
 *
 * <p>Stateless; blocks on the log's I/O. Throws what the log throws ({@code EventLogException}); a
 * snapshot that cannot be decoded is skipped for an older one with a warning, as the engine does.
 */
final class Rebuild {

    static final int PAGE = 1024;
    /**
     * Records folded in one {@link FoldedState#applyAll}: more than the default snapshot interval,
     * so that the state at any point is one batch after its snapshot (each touched Service
     * projected once); about 25 MB of decoded records held at most.
     */
    static final int BATCH = 16 * PAGE;

    private static final Logger LOG = LoggerFactory.getLogger(Rebuild.class);

    private Rebuild() {
    }

    /** The fold of every record up to {@code offset} (clamped to the log's end), from the newest usable snapshot. */
    static FoldedState at(EventLog log, long offset, History.Progress progress) {
        long end = Math.min(offset, log.nextOffset() - 1);
        long probe = end;
        while (probe >= 0) {
            Optional<Snapshot> snap = log.snapshotAtOrBefore(probe);
            if (snap.isEmpty()) {
                break;
            }
            FoldedState base;
            try {
                base = FoldedState.fromSnapshot(snap.get().data());
            } catch (SnapshotDecodeException bad) {
                LOG.warn("decision=skip-snapshot offset={} reason=\"{}\"", snap.get().offset(), bad.getMessage());
                probe = snap.get().offset() - 1;
                continue;
            }
            return forwardFrom(log, base, base.offset() + 1, end, base.offset(), progress);
        }
        long from = 0;
        if (log.firstOffset() > 0) {
            LOG.warn("decision=fold-from-first-offset first_offset={} reason=\"no usable snapshot and retention removed the log's start\"",
                    log.firstOffset());
            from = log.firstOffset();
        }
        return forwardFrom(log, FoldedState.initial(), from, end, -1, progress);
    }

    /** {@code from} folded forward with the records after it up to {@code offset} (clamped to the log's end). */
    static FoldedState forward(EventLog log, FoldedState from, long offset, History.Progress progress) {
        return forwardFrom(log, from, from.offset() + 1, Math.min(offset, log.nextOffset() - 1), from.offset(), progress);
    }

    private static FoldedState forwardFrom(EventLog log, FoldedState state, long next, long end, long base, History.Progress progress) {
        FoldedState s = state;
        long at = next;
        while (at <= end) {
            List<Envelope> batch = new ArrayList<>();
            long after = readBatch(log, at, end, batch);
            if (batch.isEmpty()) {
                break;
            }
            s = s.applyAll(batch);
            at = after;
            progress.replayed(s.offset() - base, end - base);
        }
        LOG.debug("decision=state-rebuilt offset={} from={} records_folded={}", s.offset(), base, s.offset() - base);
        return s;
    }

    /** Reads records from {@code from} up to {@code end} into {@code batch}, at most {@link #BATCH}; returns the next offset. */
    private static long readBatch(EventLog log, long from, long end, List<Envelope> batch) {
        long at = from;
        while (at <= end && batch.size() < BATCH) {
            List<Envelope> page = log.read(at, (int) Math.min(PAGE, end - at + 1));
            if (page.isEmpty()) {
                break;
            }
            batch.addAll(page);
            at = page.getLast().offset() + 1;
        }
        return at;
    }
}
