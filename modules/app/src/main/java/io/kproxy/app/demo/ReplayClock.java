package io.kproxy.app.demo;

import io.kproxy.engine.EngineClock;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The demo's clock: wall time is the recorded time of the record being replayed, so that the
 * fresh journal stamps each record with its time in the sample (and {@code render --at},
 * {@code rollback --to} of a sample time mean the same record), and the engine's own records
 * and pin checks live in that time too. Elapsed time stays real ({@link System#nanoTime()}),
 * because the engine's sync runner times its intervals on a real scheduler. Never goes
 * backwards. Thread-safe; never blocks.
 */
final class ReplayClock extends Clock {

    private volatile Instant now;

    ReplayClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock to {@code t} (ignored when it would go backwards). */
    void set(Instant t) {
        if (t.isAfter(now)) {
            now = t;
        }
    }

    @Override
    public Instant instant() {
        return now;
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
                return now;
            }

            @Override
            public long nanoTime() {
                return System.nanoTime();
            }
        };
    }
}
