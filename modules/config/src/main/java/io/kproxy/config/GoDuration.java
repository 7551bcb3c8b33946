package io.kproxy.config;

import io.kproxy.model.InvalidValueException;
import java.time.Duration;

/**
 * Durations in Go's {@code time.Duration} text form, as Kubernetes configuration files write them
 * ({@code metav1.Duration}): {@code "1h2m3.5s"}, {@code "300ms"}, {@code "0"}.
 *
 * <p>{@link #parse} follows Go's {@code time.ParseDuration} rule by rule (optional sign, one or
 * more decimal numbers each with a unit among {@code ns us µs μs ms s m h}, the lone {@code "0"}
 * without a unit, fractions truncated to nanoseconds, values limited to a signed 64-bit count of
 * nanoseconds). {@link #format} follows Go's {@code Duration.String} ({@code "1h0m0s"},
 * {@code "1.5s"}, {@code "250ms"}, {@code "0s"}), so that a recorded configuration reads like
 * upstream's. Stateless and thread-safe.
 */
public final class GoDuration {

    private static final long NS = 1;
    private static final long US = 1_000 * NS;
    private static final long MS = 1_000 * US;
    private static final long S = 1_000 * MS;
    private static final long M = 60 * S;
    private static final long H = 60 * M;

    private GoDuration() {
    }

    /**
     * Parses Go duration text.
     *
     * @throws InvalidValueException naming {@code field} when the text is not a Go duration
     */
    public static Duration parse(String field, String text) {
        String s = text;
        boolean neg = false;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            neg = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw invalid(field, text, "not a duration (e.g. \"300ms\", \"1.5h\", \"2h45m\")");
        }
        // Accumulated as an unsigned magnitude up to 2^63, as Go does, so that "-9223372036854775808ns" parses.
        long total = 0;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (!(c == '.' || (c >= '0' && c <= '9'))) {
                throw invalid(field, text, "not a duration (e.g. \"300ms\", \"1.5h\", \"2h45m\")");
            }
            int start = i;
            long v = 0;
            while (i < s.length() && isDigit(s.charAt(i))) {
                if (Long.compareUnsigned(v, Long.MAX_VALUE / 10) > 0) {
                    throw invalid(field, text, "duration out of range");
                }
                v = v * 10 + (s.charAt(i) - '0');
                if (Long.compareUnsigned(v, Long.MIN_VALUE) > 0) {
                    throw invalid(field, text, "duration out of range");
                }
                i++;
            }
            boolean pre = i != start;
            long f = 0;
            double scale = 1;
            boolean post = false;
            if (i < s.length() && s.charAt(i) == '.') {
                i++;
                int fracStart = i;
                boolean overflow = false;
                while (i < s.length() && isDigit(s.charAt(i))) {
                    // Go's leadingFraction: stop accumulating (but keep consuming) on overflow.
                    if (!overflow) {
                        long y = f * 10 + (s.charAt(i) - '0');
                        if (f > Long.MAX_VALUE / 10 || y < 0) {
                            overflow = true;
                        } else {
                            f = y;
                            scale *= 10;
                        }
                    }
                    i++;
                }
                post = i != fracStart;
            }
            if (!pre && !post) {
                throw invalid(field, text, "not a duration (e.g. \"300ms\", \"1.5h\", \"2h45m\")");
            }
            int unitStart = i;
            while (i < s.length() && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
                i++;
            }
            if (unitStart == i) {
                throw invalid(field, text, "missing unit in duration (one of ns, us, ms, s, m, h)");
            }
            long unit = unit(s.substring(unitStart, i));
            if (unit == 0) {
                throw invalid(field, text, "unknown unit \"" + s.substring(unitStart, i) + "\" in duration (one of ns, us, ms, s, m, h)");
            }
            if (Long.compareUnsigned(v, Long.MIN_VALUE / -unit) > 0) {
                throw invalid(field, text, "duration out of range");
            }
            long component = v * unit; // <= 2^63 as unsigned
            if (f > 0) {
                component += (long) ((double) f * ((double) unit / scale));
                if (Long.compareUnsigned(component, Long.MIN_VALUE) > 0) {
                    throw invalid(field, text, "duration out of range");
                }
            }
            total += component;
            if (Long.compareUnsigned(total, Long.MIN_VALUE) > 0 || Long.compareUnsigned(total, component) < 0) {
                throw invalid(field, text, "duration out of range");
            }
        }
        if (neg) {
            return Duration.ofNanos(-total);
        }
        if (total < 0) {
            throw invalid(field, text, "duration out of range");
        }
        return Duration.ofNanos(total);
    }

    /** Parses Go duration text; errors name the field {@code duration}. */
    public static Duration parse(String text) {
        return parse("duration", text);
    }

    /**
     * Go's {@code Duration.String()} of {@code d}.
     *
     * @throws InvalidValueException when {@code d} does not fit Go's signed 64-bit nanoseconds
     */
    public static String format(Duration d) {
        long n;
        try {
            n = d.toNanos();
        } catch (ArithmeticException e) {
            throw new InvalidValueException("duration", d, "does not fit in 64-bit nanoseconds");
        }
        boolean neg = n < 0;
        long u = neg ? -n : n; // Long.MIN_VALUE stays negative: handled as unsigned below
        StringBuilder sb = new StringBuilder(24);
        if (Long.compareUnsigned(u, S) < 0) {
            if (u == 0) {
                return "0s";
            }
            int prec;
            String unit;
            if (u < US) {
                prec = 0;
                unit = "ns";
            } else if (u < MS) {
                prec = 3;
                unit = "µs";
            } else {
                prec = 6;
                unit = "ms";
            }
            u = fraction(sb, u, prec);
            sb.insert(0, Long.toUnsignedString(u)).append(unit);
        } else {
            u = fraction(sb, u, 9);
            String seconds = Long.toUnsignedString(Long.remainderUnsigned(u, 60)) + sb + "s";
            sb.setLength(0);
            u = Long.divideUnsigned(u, 60);
            if (u > 0) {
                String minutes = (u % 60) + "m";
                u /= 60;
                sb.append(u > 0 ? u + "h" : "").append(minutes);
            }
            sb.append(seconds);
        }
        return neg ? "-" + sb : sb.toString();
    }

    /** Writes the fraction digits of v / 10^prec (no trailing zeros, "." only if any) into sb; returns the integer part. */
    private static long fraction(StringBuilder sb, long v, int prec) {
        StringBuilder digits = new StringBuilder(prec);
        boolean print = false;
        for (int i = 0; i < prec; i++) {
            long digit = Long.remainderUnsigned(v, 10);
            print = print || digit != 0;
            if (print) {
                digits.append((char) ('0' + digit));
            }
            v = Long.divideUnsigned(v, 10);
        }
        if (print) {
            sb.append('.').append(digits.reverse());
        }
        return v;
    }

    private static long unit(String u) {
        return switch (u) {
            case "ns" -> NS;
            case "us", "µs", "μs" -> US;
            case "ms" -> MS;
            case "s" -> S;
            case "m" -> M;
            case "h" -> H;
            default -> 0;
        };
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static InvalidValueException invalid(String field, String text, String reason) {
        return new InvalidValueException(field, text, reason);
    }
}
