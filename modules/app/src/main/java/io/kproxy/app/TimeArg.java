package io.kproxy.app;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TIME argument of {@code kproxy rollback}, with the grammar of the time-travel commands
 * ({@code render --at}, {@code diff}, {@code audit}): RFC 3339 with a zone
 * ({@code 2026-11-22T03:12:07Z}, {@code 2026-11-22T05:12:07.5+02:00}; a space may replace the
 * {@code T}), {@code now}, or a time before now ({@code -10m}, {@code -90s}, {@code -1h30m},
 * {@code -2d}). A time without a zone is refused: on an operator's laptop it would silently mean
 * another instant than on the node. Pure, given now.
 */
final class TimeArg {

    private static final Pattern RELATIVE = Pattern.compile("-((?:\\d+[dhms])+)");
    private static final Pattern PART = Pattern.compile("(\\d+)([dhms])");

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
        if (t.equals("now")) {
            return now;
        }
        Matcher rel = RELATIVE.matcher(t);
        if (rel.matches()) {
            try {
                Duration back = Duration.ZERO;
                Matcher part = PART.matcher(rel.group(1));
                while (part.find()) {
                    long n = Long.parseLong(part.group(1));
                    back = back.plus(switch (part.group(2)) {
                        case "d" -> Duration.ofDays(n);
                        case "h" -> Duration.ofHours(n);
                        case "m" -> Duration.ofMinutes(n);
                        default -> Duration.ofSeconds(n);
                    });
                }
                return now.minus(back);
            } catch (ArithmeticException | NumberFormatException | DateTimeException e) {
                throw new Invalid("\"" + text + "\" is out of range");
            }
        }
        try {
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeException e) {
            throw new Invalid("\"" + text + "\" is not a time: use RFC 3339 with a zone (2026-11-22T03:12:07Z, 2026-11-22T05:12:07+02:00), "
                    + "now, or a time before now (-10m, -1h30m, -2d)");
        }
    }
}
