package io.kproxy.engine;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Go's {@code time.Time.String()} in UTC ({@code 2006-01-02 15:04:05.999999999 +0000 UTC}):
 * the text upstream's health server writes with {@code %q}. Fractional seconds lose trailing
 * zeros and vanish when zero, as Go's {@code .999999999} layout does; Go's monotonic suffix
 * ({@code m=+1.234}) is not written, since it means nothing outside the process. Go's zero time
 * ({@code 0001-01-01 00:00:00 +0000 UTC}) stands for "never".
 */
final class GoTime {

    static final Instant ZERO = Instant.parse("0001-01-01T00:00:00Z");
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private GoTime() {
    }

    static String format(Instant t) {
        StringBuilder sb = new StringBuilder(SECONDS.format(t));
        int nanos = t.getNano();
        if (nanos != 0) {
            String frac = String.format("%09d", nanos);
            int end = frac.length();
            while (frac.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(frac, 0, end);
        }
        return sb.append(" +0000 UTC").toString();
    }
}
