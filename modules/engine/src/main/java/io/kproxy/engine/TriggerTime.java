package io.kproxy.engine;

import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Optional;

/**
 * An EndpointSlice's {@code endpoints.kubernetes.io/last-change-trigger-time} annotation, set by
 * the EndpointSlice controller to when the change that produced this version happened; upstream
 * observes "programmed minus trigger time" as {@code kubeproxy_network_programming_duration_seconds}
 * (docs/upstream-behaviour.md §1.6 row 51). Immutable.
 *
 * @param at     the trigger time
 * @param family the slice's {@code addressType}
 */
record TriggerTime(Instant at, IpFamily family) {

    static final String ANNOTATION = "endpoints.kubernetes.io/last-change-trigger-time";

    /** The trigger time of a slice object, when it has a parsable one and an IP address type. Pure. */
    static Optional<TriggerTime> of(Json.Obj slice) {
        Optional<String> text = slice.object("metadata").object("annotations").string(ANNOTATION);
        Optional<IpFamily> family = switch (slice.string("addressType").orElse("")) {
            case "IPv4" -> Optional.of(IpFamily.IPV4);
            case "IPv6" -> Optional.of(IpFamily.IPV6);
            default -> Optional.empty();
        };
        if (text.isEmpty() || family.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TriggerTime(parse(text.get()), family.get()));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /**
     * RFC 3339, as {@code metav1.Time} writes it ({@code 2026-11-22T03:12:04Z}), read directly;
     * any other form (fractional seconds, an offset) through {@link OffsetDateTime#parse}, which
     * gives the same instant for the direct form too. The direct read exists for the initial
     * list: {@code OffsetDateTime.parse} was a tenth of the fold's time at 100,000 Services (JFR;
     * docs/benchmarks.md, "Scale").
     *
     * @throws DateTimeException when the text is not a valid time
     */
    static Instant parse(String text) {
        if (text.length() == 20 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T' && text.charAt(13) == ':'
                && text.charAt(16) == ':' && text.charAt(19) == 'Z') {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 2);
            int day = digits(text, 8, 2);
            int hour = digits(text, 11, 2);
            int minute = digits(text, 14, 2);
            int second = digits(text, 17, 2);
            if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && hour >= 0 && hour < 24 && minute >= 0 && minute < 60 && second >= 0
                    && second < 60) {
                // LocalDate.of refuses a day the month does not have, as the parser does.
                long days = LocalDate.of(year, month, day).toEpochDay();
                return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second);
            }
        }
        return OffsetDateTime.parse(text).toInstant();
    }

    /** The non-negative decimal number of {@code count} ASCII digits at {@code from}; -1 when one is not a digit. */
    private static int digits(String text, int from, int count) {
        int n = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
