package io.kproxy.testkit;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that says what a test sets: logs and journals take their record times from an
 * injected {@link Clock}, and a test that writes history at chosen instants sets it before each
 * append. Thread-safe ({@code volatile}); never null.
 */
public final class SettableClock extends Clock {

    private volatile Instant now;

    public SettableClock(Instant start) {
        if (start == null) {
            throw new IllegalArgumentException("start is required");
        }
        this.now = start;
    }

    /** Sets the time every later {@link #instant()} returns. */
    public void set(Instant instant) {
        if (instant == null) {
            throw new IllegalArgumentException("instant is required");
        }
        this.now = instant;
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
}
