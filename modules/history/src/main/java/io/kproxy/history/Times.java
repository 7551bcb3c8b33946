package io.kproxy.history;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TIME arguments of the time-travel commands: RFC 3339 ({@code 2026-11-22T03:12:07Z},
 * {@code 2026-11-22T05:12:07.250+02:00}), {@code now}, or a time relative to now
 * ({@code -5m}, {@code -90s}, {@code -1h30m}, {@code -2d}). A time without a zone is refused:
 * on a laptop far from the node it would silently mean another instant. Pure but for the clock;
 * thread-safe; never returns null.
 */
public final class Times {

    private static final Pattern RELATIVE = Pattern.compile("-((?:\\d+[dhms])+)");
    private static final Pattern PART = Pattern.compile("(\\d+)([dhms])");

    private Times() {
    }

    /**
     * Parses {@code text}.
     *
     * @throws HistoryException {@link HistoryException.Reason#BAD_ARGUMENT} naming the accepted forms
     */
    public static Instant parse(String text, Clock clock) {
        String t = text == null ? "" : text.strip();
        if (t.equals("now")) {
            return clock.instant();
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
                return clock.instant().minus(back);
            } catch (ArithmeticException | NumberFormatException | DateTimeException e) {
                throw new HistoryException(HistoryException.Reason.BAD_ARGUMENT, "time \"" + text + "\" is out of range");
            }
        }
        try {
            return OffsetDateTime.parse(t.replace(' ', 'T')).toInstant();
        } catch (DateTimeException e) {
            throw new HistoryException(HistoryException.Reason.BAD_ARGUMENT, "cannot read time \"" + text
                    + "\": use RFC 3339 with a zone (2026-11-22T03:12:07Z, 2026-11-22T05:12:07+02:00), now, or -5m / -2h30m / -1d");
        }
    }
}
