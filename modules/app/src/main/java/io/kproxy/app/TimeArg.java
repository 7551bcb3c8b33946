package io.kproxy.app;

import io.kproxy.history.HistoryException;
import io.kproxy.history.Times;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * A TIME argument of {@code kproxy rollback}, read by the time-travel commands' own parser
 * ({@link Times}: RFC 3339 with a zone, a space allowed for the {@code T}, {@code now}, or a time
 * before now such as {@code -10m}, {@code -1h30m}, {@code -2d}), so that the grammar cannot drift
 * between {@code render --at}/{@code diff}/{@code audit} and {@code rollback}. This class only
 * turns the parser's unchecked refusal into the checked {@link Invalid} the command handles.
 * Pure, given now.
 */
final class TimeArg {

    /** A time that cannot be read; the message says what is accepted. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    private TimeArg() {
    }

    static Instant parse(String text, Instant now) throws Invalid {
        try {
            return Times.parse(text, Clock.fixed(now, ZoneOffset.UTC));
        } catch (HistoryException e) {
            throw new Invalid(e.getMessage());
        }
    }
}
