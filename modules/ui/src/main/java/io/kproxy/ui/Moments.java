package io.kproxy.ui;

import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import io.kproxy.history.Point;
import io.kproxy.history.Rendering;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.ServiceRef;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The page's questions about one moment, answered by {@code io.kproxy.history} (the same code as
 * {@code kproxy render --at}, {@code diff}, {@code --explain} and {@code audit}): the ruleset the
 * node had programmed, the diff to the sync before with the records that caused each change, a
 * Service's audit. A moment is a time (the sync in force then) or a record (the first sync that
 * programmed it). {@link History} is not thread-safe and keeps the last state it folded (so that
 * clicks near each other fold little): every call holds this object's lock. The history is opened
 * again when the log has grown, so a running agent's page sees new records.
 */
final class Moments implements AutoCloseable {

    /** A moment the page asks about. */
    sealed interface Target permits AtTime, AtRecord {
    }

    /** The sync in force at a time. */
    record AtTime(Instant time) implements Target {
    }

    /** The first sync that programmed a record (the record itself when it is a sync). */
    record AtRecord(long offset) implements Target {
    }

    /** A moment resolved: the point, its sync record, and the sync before it (absent for the first). */
    record Resolved(Point point, Optional<Envelope> previous) {
    }

    private final EventLog log;
    private final Supplier<History> opener;
    private final JournalIndex index;
    private History history;
    private long openedAt = -1;

    Moments(EventLog log, Supplier<History> opener, JournalIndex index) {
        this.log = log;
        this.opener = opener;
        this.index = index;
    }

    synchronized History history() {
        long next = log.nextOffset();
        if (history == null || next != openedAt) {
            if (history != null) {
                history.close();
            }
            history = opener.get();
            openedAt = next;
        }
        return history;
    }

    synchronized Resolved resolve(Target target) {
        History h = history();
        Point point = switch (target) {
            case AtTime t -> h.at(t.time());
            case AtRecord r -> {
                long sync = index.isSync(r.offset()) ? r.offset() : index.syncCovering(r.offset());
                if (sync < 0) {
                    throw new HistoryException(HistoryException.Reason.NOT_IN_JOURNAL, "no sync recorded after record #" + r.offset()
                            + " programmed it (yet)");
                }
                yield programmed(sync);
            }
        };
        Optional<Envelope> previous = point.sync().map(s -> index.syncBefore(s.offset())).filter(o -> o >= 0).map(this::record);
        return new Resolved(point, previous);
    }

    /** The ruleset diff from the sync before the moment's to the moment's, turned around for a rollback. */
    synchronized String diff(Resolved moment, Optional<String> mode) {
        History h = history();
        Point to = moment.point();
        if (to.sync().isEmpty()) {
            return "no sync was recorded by then: nothing to compare (" + to.describe() + ")";
        }
        if (moment.previous().isEmpty()) {
            return "the first sync recorded: every rule is new (" + to.describe() + ")";
        }
        Point from = programmed(moment.previous().get());
        if (to.offset() >= from.offset()) {
            return h.diff(from, to, mode);
        }
        String pin = index.pinInForce(to.sync().get().offset()).map(Mark::label).orElse("an older state was programmed");
        return RollbackDiff.invert(h.diff(to, from, mode), from, to, pin);
    }

    synchronized Rendering render(Point point, Optional<String> mode) {
        return history().render(point, mode);
    }

    synchronized String explain(Rendering rendering) {
        return history().explain(rendering);
    }

    synchronized String audit(ServiceRef service, Optional<Instant> since) {
        return history().audit(service, since);
    }

    synchronized List<String> warnings() {
        return history().warnings();
    }

    private Point programmed(long syncOffset) {
        return programmed(record(syncOffset));
    }

    private static Point programmed(Envelope sync) {
        SyncApplied s = (SyncApplied) sync.event();
        return new Point(Optional.of(sync.recordedAt()), s.uptoOffset(), Point.Basis.PROGRAMMED, Optional.of(sync), Optional.empty());
    }

    private Envelope record(long offset) {
        List<Envelope> one = log.read(offset, 1);
        if (one.isEmpty() || one.getFirst().offset() != offset) {
            throw new HistoryException(HistoryException.Reason.NOT_IN_JOURNAL, "the journal holds no record #" + offset);
        }
        return one.getFirst();
    }

    @Override
    public synchronized void close() {
        if (history != null) {
            history.close();
            history = null;
        }
    }
}
