package io.kproxy.history;

import io.kproxy.backend.Plan;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.history.HistoryException.Reason;
import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.model.ServiceRef;
import io.kproxy.replay.StateLoader;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Time travel over one event log (docs/design.md, "Time travel and rollback"): resolves times and
 * offsets to {@link Point}s, rebuilds the folded state at a point (the nearest snapshot plus
 * replay, or forward from the last state it rebuilt when that is nearer; see {@link StateLoader}),
 * renders it in a backend's language, and answers {@link #diff} and {@link #audit}. Works on a
 * journal opened read-only (a copy on a laptop, or the live directory next to a running agent:
 * nothing is written, no lock is taken) or on any {@link EventLog}.
 *
 * <p>A time asks what the node <em>had programmed</em> then: the state of the last
 * {@code SyncApplied} recorded at or before it (its {@code uptoOffset}), because between a change
 * being recorded and the next sync the kernel still holds the previous rules. {@link #desiredAt}
 * and {@link #atOffset} ask for the fold of the records instead. Every method throws
 * {@link HistoryException} (never a raw I/O or decoding error). An answer that needs records the
 * journal lost (damage, a deleted segment, a torn tail not yet recovered) is refused with
 * {@link Reason#UNREADABLE} naming the offsets, never rebuilt from the records that remain
 * (docs/operations.md, "Damaged journal"). Not thread-safe (one command at a time); blocks on the
 * log's I/O. No method accepts or returns null.
 */
public final class History implements AutoCloseable {

    /** Told how a long replay progresses (the CLI draws it on a terminal). Called on the caller's thread. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (done, total) -> { };

        void replayed(long done, long total);
    }

    /** Sees each record of a {@link #walk}: the state before it and the fold step it made. */
    @FunctionalInterface
    interface Visitor {
        void visit(Envelope record, FoldedState before, FoldStep step);
    }

    private static final Logger LOG = LoggerFactory.getLogger(History.class);
    /** Problems whose records are lost (the others are repaired or about derived files). */
    private static final Set<JournalProblem.Kind> LOSSES = EnumSet.of(JournalProblem.Kind.DAMAGED_RECORD,
            JournalProblem.Kind.UNDECODABLE_RECORD, JournalProblem.Kind.BAD_HEADER, JournalProblem.Kind.OFFSET_GAP,
            JournalProblem.Kind.OFFSET_OVERLAP, JournalProblem.Kind.MISSING_RECORDS, JournalProblem.Kind.UNREADABLE_FILE,
            JournalProblem.Kind.LOST_RANGE);
    private static final int PAGE = 512;

    private final EventLog log;
    private final boolean owned;
    private final List<String> warnings;
    /** Why the newest records may be missing (a torn or damaged tail the agent has not recovered yet), or null. */
    private String tailLost;
    /** Why the oldest records cannot be read (the first segment is damaged), or null. */
    private String headLost;
    private final Renderers renderers = new Renderers();
    private Progress progress = Progress.NONE;
    private JournalRange range;
    private FoldedState cached;
    /** The last rendering's state offset, mode, text and hash: two points on one state render once. */
    private long renderedOffset = Long.MIN_VALUE;
    private String renderedMode = "";
    private String renderedText = "";
    private String renderedHash = "";

    private History(EventLog log, boolean owned, List<String> warnings, String tailLost) {
        this.log = log;
        this.owned = owned;
        this.warnings = List.copyOf(warnings);
        this.tailLost = tailLost;
    }

    /**
     * Opens the journal in {@code dir} read-only.
     *
     * @throws HistoryException {@link Reason#UNREADABLE} when there is no journal there or it cannot be opened
     */
    public static History open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new HistoryException(Reason.UNREADABLE, "no journal directory at " + dir);
        }
        LocalJournal journal;
        try {
            journal = LocalJournal.openReadOnly(dir);
        } catch (EventLogException e) {
            throw new HistoryException(Reason.UNREADABLE, "cannot open journal " + dir + ": " + e.getMessage(), e);
        }
        List<String> warnings = new ArrayList<>();
        journal.tornTail().ifPresent(p -> warnings.add("the journal ends in an incomplete record (" + p
                + "); answering only for times before it"));
        for (JournalProblem p : journal.openProblems()) {
            if (LOSSES.contains(p.kind()) && p.firstOffset() >= 0) {
                warnings.add("the journal is damaged (" + p + "); an answer that needs those offsets is refused (kproxy journal verify)");
            }
        }
        return new History(journal, true, warnings, journal.tornTail().map(JournalProblem::toString).orElse(null));
    }

    /** Time travel over a log this process holds; closing the history leaves the log open. */
    public static History of(EventLog log) {
        return new History(log, false, List.of(), null);
    }

    public History withProgress(Progress p) {
        this.progress = p;
        return this;
    }

    /** Things an operator should know about the journal itself (a torn tail), one sentence each. */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * The records the journal holds.
     *
     * @throws HistoryException {@link Reason#NOT_IN_JOURNAL} when it holds none
     */
    public JournalRange range() {
        if (range == null) {
            long first = guard(log::firstOffset);
            long last = guard(log::nextOffset) - 1;
            Envelope newest = null;
            while (newest == null && last >= first) {
                try {
                    newest = record(last);
                } catch (HistoryException e) {
                    // the newest records are lost (damage the agent has not recovered yet): the
                    // range ends before them, and times from the last readable one on are refused
                    if (!(e.getCause() instanceof EventLogException lost) || lost.lostFirst() < 0 || lost.lostFirst() > last) {
                        throw e;
                    }
                    tailLost = lost.getMessage();
                    last = lost.lostFirst() - 1;
                }
            }
            if (newest == null) {
                throw new HistoryException(Reason.NOT_IN_JOURNAL, "the journal holds no records" + (tailLost == null ? ""
                        : " it can read (" + tailLost + ")"));
            }
            Envelope oldest = null;
            while (oldest == null) {
                try {
                    oldest = record(first);
                } catch (HistoryException e) {
                    // the oldest records are lost: the range starts after them, and earlier times are refused
                    if (!(e.getCause() instanceof EventLogException lost) || lost.lostFirst() < 0 || lost.lostLast() >= last) {
                        throw e;
                    }
                    headLost = lost.getMessage();
                    first = lost.lostLast() + 1;
                }
            }
            range = new JournalRange(first, last, oldest.recordedAt(), newest.recordedAt());
        }
        return range;
    }

    /** What the node had programmed at {@code time}: the state of the last sync recorded at or before it. */
    public Point at(Instant time) {
        long upTo = lastOffsetAtOrBefore(time);
        Optional<Envelope> failure = Optional.empty();
        long first = range().firstOffset();
        int page = 64; // syncs are frequent: the one in force is usually a few records back
        for (long hi = upTo; hi >= first; page = Math.min(page * 2, 8 * PAGE)) {
            long lo = Math.max(first, hi - page + 1);
            List<Envelope> records = read(lo, (int) (hi - lo + 1));
            for (int i = records.size() - 1; i >= 0; i--) {
                Envelope e = records.get(i);
                if (e.event() instanceof SyncApplied s) {
                    return new Point(Optional.of(time), s.uptoOffset(), Point.Basis.PROGRAMMED, Optional.of(e), failure);
                }
                if (e.event() instanceof SyncFailed && failure.isEmpty()) {
                    failure = Optional.of(e);
                }
            }
            hi = lo - 1;
        }
        if (headLost != null) {
            // the sync in force may be among the lost oldest records
            throw new HistoryException(Reason.UNREADABLE, "no sync is recorded between offsets " + first + " and " + upTo
                    + ", and the records before them are lost: " + headLost);
        }
        return new Point(Optional.of(time), upTo, Point.Basis.NOTHING_PROGRAMMED, Optional.empty(), failure);
    }

    /** The desired state at {@code time}: the fold of every record accepted at or before it, programmed or not. */
    public Point desiredAt(Instant time) {
        return new Point(Optional.of(time), lastOffsetAtOrBefore(time), Point.Basis.DESIRED, Optional.empty(), Optional.empty());
    }

    /**
     * The desired state at {@code offset}: the fold of every record up to it.
     *
     * @throws HistoryException {@link Reason#NOT_IN_JOURNAL} when the journal does not hold it
     */
    public Point atOffset(long offset) {
        JournalRange r = range();
        if (offset > r.lastOffset() && tailLost != null && offset < guard(log::nextOffset)) {
            throw new HistoryException(Reason.UNREADABLE, "offset " + offset + " is among the journal's newest records, which are lost: "
                    + tailLost);
        }
        if (offset > r.lastOffset()) {
            throw new HistoryException(Reason.NOT_IN_JOURNAL, "offset " + offset + " is past the journal's end: it holds " + r);
        }
        if (offset < r.firstOffset() && headLost != null) {
            throw new HistoryException(Reason.UNREADABLE, "offset " + offset + " is among the journal's oldest records, which are lost: "
                    + headLost);
        }
        if (offset < r.firstOffset()) {
            throw new HistoryException(Reason.NOT_IN_JOURNAL, "offset " + offset + " is before the first record the journal still holds: "
                    + "it holds " + r + " (retention removed older records)");
        }
        return new Point(Optional.empty(), offset, Point.Basis.OFFSET, Optional.empty(), Optional.empty());
    }

    private long lastOffsetAtOrBefore(Instant time) {
        JournalRange r = range();
        if (time.isBefore(r.firstTime()) && headLost != null) {
            throw new HistoryException(Reason.UNREADABLE, "the answer at " + Describe.time(time) + " needs records before offset "
                    + r.firstOffset() + ", which the journal lost: " + headLost);
        }
        if (time.isBefore(r.firstTime())) {
            throw new HistoryException(Reason.NOT_IN_JOURNAL, Describe.time(time) + " is before the journal starts: it holds " + r);
        }
        if (tailLost != null && !time.isBefore(r.lastTime())) {
            // a lost record after the last readable one was accepted at or after its time
            throw new HistoryException(Reason.UNREADABLE, "the answer at " + Describe.time(time) + " may need records after offset "
                    + r.lastOffset() + ", which the journal lost: " + tailLost + "; it can answer for times before "
                    + Describe.time(r.lastTime()));
        }
        OptionalLong after = guard(() -> log.offsetAt(time.plusNanos(1)));
        return after.isPresent() ? Math.min(after.getAsLong() - 1, r.lastOffset()) : r.lastOffset();
    }

    /** The state folded up to {@code offset} (-1: the empty state). */
    public FoldedState state(long offset) {
        if (offset < 0) {
            return FoldedState.initial();
        }
        FoldedState s = cached;
        boolean forward = s != null && s.offset() <= offset;
        if (forward) {
            Optional<Snapshot> snap = guard(() -> log.snapshotAtOrBefore(offset));
            forward = snap.isEmpty() || snap.get().offset() <= s.offset() || offset - s.offset() < PAGE;
        }
        long start = forward ? s.offset() : -1;
        FoldedState result = forward ? guard(() -> StateLoader.forward(log, s, offset, progress::replayed)) : guard(() -> StateLoader.at(log, offset, progress::replayed).state());
        LOG.debug("decision=state-rebuilt offset={} from={}", offset, forward ? "folded-state-" + start : "snapshot-or-start");
        cached = result;
        return result;
    }

    /** Folds the records after {@code from} up to {@code toOffset}, showing each to {@code visitor}. */
    FoldedState walk(FoldedState from, long toOffset, Visitor visitor) {
        FoldedState state = from;
        long total = toOffset - from.offset();
        LogPages pages = LogPages.refusing(log, from.offset() + 1, toOffset, PAGE);
        while (guard(pages::hasNext)) {
            for (Envelope e : pages.next()) {
                FoldStep step = state.apply(e);
                visitor.visit(e, state, step);
                state = step.state();
            }
            progress.replayed(pages.position() - 1 - from.offset(), total);
        }
        return state;
    }

    /**
     * Renders the state of {@code point} in {@code mode}, or when empty in the mode of the sync in
     * force, else the mode of the configuration recorded in the journal.
     */
    public Rendering render(Point point, Optional<String> mode) {
        FoldedState state = state(point.offset());
        String m = mode.orElseGet(() -> point.applied().map(SyncApplied::backend).orElse(state.node().settings().mode()));
        if (renderedOffset != state.offset() || !renderedMode.equals(m)) {
            Plan plan;
            try {
                plan = renderers.render(m, state.node());
            } catch (HistoryException e) {
                if (mode.isPresent()) {
                    throw e;
                }
                throw new HistoryException(e.reason(), "the journal's mode: " + e.getMessage() + "; choose one with --mode", e);
            }
            renderedText = plan.rulesetText();
            renderedHash = plan.rulesetHash();
            renderedOffset = state.offset();
            renderedMode = m;
        }
        Optional<String> recorded = point.applied().filter(s -> s.backend().equals(m)).map(SyncApplied::rulesetHash);
        return new Rendering(point, m, renderedText, renderedHash, recorded);
    }

    /** {@link #render} with each service's rules preceded by the records they came from. */
    public String explain(Rendering rendering) {
        return Explainer.explain(rendering, state(rendering.point().offset()), this::record);
    }

    /** The ruleset diff between two points, grouped by service, with the records between them that touched each. */
    public String diff(Point from, Point to, Optional<String> mode) {
        if (to.offset() < from.offset()) {
            throw new HistoryException(Reason.BAD_ARGUMENT, "the second point (#" + to.offset() + ") is before the first (#" + from.offset()
                    + "): give the earlier time first");
        }
        Rendering a = render(from, mode);
        Rendering b = render(to, Optional.of(a.mode()));
        return RulesetDiff.report(this, a, b);
    }

    /**
     * The audit timeline of {@code service}: every record touching it from {@code since} (the
     * journal's start when empty), each with the sync that brought it to the kernel.
     *
     * @throws HistoryException {@link Reason#NOT_IN_JOURNAL} when no record in the journal names the Service
     */
    public String audit(ServiceRef service, Optional<Instant> since) {
        return Audit.report(this, service, since);
    }

    /** The record at {@code offset}. */
    Envelope record(long offset) {
        List<Envelope> one = read(offset, 1);
        if (one.isEmpty() || one.getFirst().offset() != offset) {
            throw new HistoryException(Reason.NOT_IN_JOURNAL, "the journal holds no record #" + offset);
        }
        return one.getFirst();
    }

    List<Envelope> read(long from, int max) {
        return guard(() -> log.read(from, max));
    }

    Progress progress() {
        return progress;
    }

    private static <T> T guard(Supplier<T> call) {
        try {
            return call.get();
        } catch (EventLogException e) {
            if (e.lostFirst() >= 0) {
                throw new HistoryException(Reason.UNREADABLE, "the answer needs offsets " + e.lostFirst() + ".." + e.lostLast()
                        + ", which the journal does not hold intact: " + e.getMessage(), e);
            }
            throw new HistoryException(Reason.UNREADABLE, "the journal cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        renderers.close();
        if (owned) {
            log.close();
        }
    }
}
