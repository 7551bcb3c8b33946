package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.state.FoldedState;
import io.kproxy.state.SnapshotDecodeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the folded state at an offset for time travel, the way {@code engine.StateLoader}
 * does (the newest decodable snapshot at or before it, then the records after it; folding from a
 * snapshot plus the suffix equals folding from the start), but faster for one question:
 * <ul>
 *   <li>records are folded in batches with {@link FoldedState#applyAll}, which projects the
 *       touched Services once per batch instead of once per record and computes no delta (the
 *       projection and delta were about half of a fold step, docs/benchmarks.md "Time travel
 *       with the fold");</li>
 *   <li>the snapshot is decoded (and projected) on a helper thread while the caller reads and
 *       decodes the records after it, up to {@link #READ_AHEAD} of them (bounded memory).</li>
 * </ul>
 * Stateless; blocks on the log's I/O; starts one short-lived daemon thread per snapshot decoded.
 * Throws what the log throws ({@code EventLogException}); a snapshot that cannot be decoded is
 * skipped for an older one with a warning, as the engine does.
 */
final class Rebuild {

    static final int PAGE = 1024;
    /** Records read ahead while the snapshot decodes: about 12 MB of decoded records at most. */
    static final int READ_AHEAD = 16 * PAGE;

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
            CompletableFuture<FoldedState> decoded = decodeAside(snap.get());
            List<List<Envelope>> ahead = new ArrayList<>();
            long next = readAhead(log, snap.get().offset() + 1, end, ahead);
            FoldedState base;
            try {
                base = decoded.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof SnapshotDecodeException bad) {
                    LOG.warn("decision=skip-snapshot offset={} reason=\"{}\"", snap.get().offset(), bad.getMessage());
                    probe = snap.get().offset() - 1;
                    continue;
                }
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            FoldedState s = base;
            for (List<Envelope> page : ahead) {
                s = s.applyAll(page);
                progress.replayed(s.offset() - base.offset(), end - base.offset());
            }
            return forwardFrom(log, s, next, end, base.offset(), progress);
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
            List<Envelope> page = log.read(at, (int) Math.min(PAGE, end - at + 1));
            if (page.isEmpty()) {
                break;
            }
            s = s.applyAll(page);
            at = page.getLast().offset() + 1;
            progress.replayed(at - 1 - base, end - base);
        }
        LOG.debug("decision=state-rebuilt offset={} from={} records_folded={}", s.offset(), base, s.offset() - base);
        return s;
    }

    /** Reads pages from {@code from} up to {@code end} into {@code pages}, at most {@link #READ_AHEAD} records; returns the next offset. */
    private static long readAhead(EventLog log, long from, long end, List<List<Envelope>> pages) {
        long at = from;
        int held = 0;
        while (at <= end && held < READ_AHEAD) {
            List<Envelope> page = log.read(at, (int) Math.min(PAGE, end - at + 1));
            if (page.isEmpty()) {
                break;
            }
            pages.add(page);
            held += page.size();
            at = page.getLast().offset() + 1;
        }
        return at;
    }

    private static CompletableFuture<FoldedState> decodeAside(Snapshot snap) {
        CompletableFuture<FoldedState> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("kproxy-history-snapshot-" + snap.offset()).start(() -> {
            try {
                f.complete(FoldedState.fromSnapshot(snap.data()));
            } catch (Throwable t) { // handed to the caller, who rethrows it
                f.completeExceptionally(t);
            }
        });
        return f;
    }
}
