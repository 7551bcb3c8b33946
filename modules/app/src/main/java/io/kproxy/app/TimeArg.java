package io.kproxy.app;

import io.kproxy.config.GoDuration;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;

/**
 * A point in time as the time-travel commands take it: an RFC 3339 time with its zone
 * ({@code 2026-11-22T03:12:07Z}, {@code 2026-11-22T05:12:07.5+02:00}), or a Go duration before
 * now ({@code -10m}, {@code -1h30m}). Pure, given the clock's now.
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
        String t = text.strip();
        if (t.startsWith("-")) {
            try {
                Duration d = GoDuration.parse(t.substring(1));
                if (d.isNegative()) {
                    throw new Invalid(hint(text));
                }
                return now.minus(d);
            } catch (IllegalArgumentException e) {
                throw new Invalid(hint(text));
            }
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeException e) {
            throw new Invalid(hint(text));
        }
    }

    private static String hint(String text) {
        return "\"" + text + "\" is not a time: use RFC 3339 with a zone (2026-11-22T03:12:07Z, 2026-11-22T05:12:07+02:00) "
                + "or a duration before now (-10m, -1h30m)";
    }
}
