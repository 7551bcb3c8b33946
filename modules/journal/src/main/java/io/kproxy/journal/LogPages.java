package io.kproxy.journal;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * Reads the records of {@code [from, to]} from an {@link EventLog} forward, one bounded
 * {@link EventLog#read} at a time, so that a caller holds at most a page of decoded records per
 * step: the one loop every forward sweep of the log shares (state rebuilds, time travel's walk,
 * the benchmarks). The sweep ends at {@code to} or at the log's end (an empty read), whichever
 * comes first.
 *
 * <p>Where the log lost records (docs/operations.md, "Damaged journal"), a sweep made with
 * {@link #refusing} fails with the log's {@link EventLogException}; one made with
 * {@link #skipping} serves the records before the lost range as a (shorter) page, tells its
 * listener, and goes on after the range: only the agent's start does that, because its source
 * relists right after. {@link #beforeLoss} reads one page that stops before a loss.
 *
 * <p>Not thread-safe: one sweep per caller. {@link #hasNext()} blocks on the log's I/O and throws
 * what the log throws. No method accepts or returns null.
 */
public final class LogPages implements Iterator<List<Envelope>> {

    private final EventLog log;
    private final long to;
    private final int pageSize;
    /** Told of each lost range a skipping sweep steps over; null for a refusing sweep. */
    private final Consumer<EventLogException> onSkip;
    private long at;
    private int lostRanges;
    private boolean ended;
    private List<Envelope> page;

    private LogPages(EventLog log, long from, long to, int pageSize, Consumer<EventLogException> onSkip) {
        if (log == null) {
            throw new IllegalArgumentException("log is required");
        }
        if (from < 0 || pageSize < 1) {
            throw new IllegalArgumentException("need from >= 0 and pageSize >= 1: from " + from + ", pageSize " + pageSize);
        }
        this.log = log;
        this.to = to;
        this.pageSize = pageSize;
        this.onSkip = onSkip;
        this.at = from;
    }

    /** A sweep of {@code [from, to]} in reads of at most {@code pageSize} records that fails where the log lost records. */
    public static LogPages refusing(EventLog log, long from, long to, int pageSize) {
        return new LogPages(log, from, to, pageSize, null);
    }

    /**
     * A sweep of {@code [from, to]} in reads of at most {@code pageSize} records that steps over
     * each range the log names as lost ({@link EventLogException#lostFirst()} ..
     * {@link EventLogException#lostLast()}), telling {@code onSkip} after serving the records
     * before it. A failure that names no range, or only offsets before the sweep's position,
     * is thrown.
     */
    public static LogPages skipping(EventLog log, long from, long to, int pageSize, Consumer<EventLogException> onSkip) {
        if (onSkip == null) {
            throw new IllegalArgumentException("onSkip is required");
        }
        return new LogPages(log, from, to, pageSize, onSkip);
    }

    /**
     * Up to {@code max} records from {@code from}, stopping before records the log lost after
     * {@code from}.
     *
     * @throws EventLogException what the log throws when the record at {@code from} itself is
     *         lost, or when the failure names no range
     */
    public static List<Envelope> beforeLoss(EventLog log, long from, int max) {
        try {
            return log.read(from, max);
        } catch (EventLogException e) {
            if (e.lostFirst() <= from) {
                throw e;
            }
            return log.read(from, (int) Math.min(e.lostFirst() - from, max));
        }
    }

    @Override
    public boolean hasNext() {
        while (page == null && !ended && at <= to) {
            int max = to - at < pageSize ? (int) (to - at + 1) : pageSize;
            try {
                List<Envelope> read = log.read(at, max);
                if (read.isEmpty()) {
                    ended = true;
                } else {
                    page = read;
                    at = read.getLast().offset() + 1;
                }
            } catch (EventLogException e) {
                if (onSkip == null || e.lostFirst() < 0 || e.lostLast() < at) {
                    throw e;
                }
                // a read that reaches a lost range names its first offset, so the records before it fit in this read
                List<Envelope> before = e.lostFirst() > at ? log.read(at, (int) Math.min(e.lostFirst() - at, max)) : List.of();
                onSkip.accept(e);
                lostRanges++;
                at = e.lostLast() + 1;
                page = before.isEmpty() ? null : before;
            }
        }
        return page != null;
    }

    /** The next page: one or more records in offset order. */
    @Override
    public List<Envelope> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the sweep is over at offset " + at);
        }
        List<Envelope> out = page;
        page = null;
        return out;
    }

    /**
     * The offset after the last record served or lost range stepped over: where a reader of the
     * log continues after this sweep.
     */
    public long position() {
        return at;
    }

    /** How many lost ranges a skipping sweep has stepped over so far (0 for a refusing one). */
    public int lostRanges() {
        return lostRanges;
    }
}
