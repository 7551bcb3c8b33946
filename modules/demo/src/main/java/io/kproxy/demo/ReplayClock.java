package io.kproxy.demo;

import io.kproxy.engine.EngineClock;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * The demo's clock: history time. When a record is replayed the clock reads its recorded time,
 * so that the fresh journal stamps each record with its time in the history (and
 * {@code render --at}, {@code rollback --to} of a history time mean the same record); between
 * two records it runs at the replay's speed but never reaches the next record's time, so the
 * engine's own records (syncs, pins) land between the records around them, at plausible times.
 * Elapsed time stays real ({@link System#nanoTime()}): the engine's sync runner times its
 * intervals on a real scheduler. Never goes backwards. Thread-safe; never blocks.
 */
final class ReplayClock extends Clock {

    private record Span(Instant from, long realFrom, Instant until) {
    }

    private final double speed;
    private volatile Span span;
    private volatile Instant last;

    /**
     * @param speed history time per real time
     */
    ReplayClock(Instant start, double speed) {
        this.speed = speed;
        this.span = new Span(start, System.nanoTime(), start);
        this.last = start;
    }

    /** The record recorded at {@code t} is replayed now; the next one was recorded at {@code next}. */
    void set(Instant t, Instant next) {
        span = new Span(t, System.nanoTime(), next.isBefore(t) ? t : next);
    }

    /** Stops the clock where it is (the demo pauses the history), until the next {@link #set}. */
    synchronized void hold() {
        Instant t = instant();
        span = new Span(t, System.nanoTime(), t);
    }

    @Override
    public synchronized Instant instant() {
        Span s = span;
        // Whole milliseconds between records: readable times, and still ordered.
        Instant t = s.from().plusNanos((long) ((System.nanoTime() - s.realFrom()) * speed)).truncatedTo(ChronoUnit.MILLIS);
        if (!t.isBefore(s.until())) {
            // Stay before the next record, so that it keeps its recorded time.
            t = s.until().minusMillis(1).isAfter(s.from()) ? s.until().minusMillis(1) : s.from();
        }
        if (t.isBefore(s.from())) {
            t = s.from();
        }
        if (t.isBefore(last)) {
            t = last;
        }
        last = t;
        return t;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    /** The same clock for the engine. */
    EngineClock engineClock() {
        return new EngineClock() {
            @Override
            public Instant now() {
                return instant();
            }

            @Override
            public long nanoTime() {
                return System.nanoTime();
            }
        };
    }
}
