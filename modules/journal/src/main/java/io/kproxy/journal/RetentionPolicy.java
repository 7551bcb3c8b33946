package io.kproxy.journal;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * How long the local journal keeps records: sealed segments whose newest record is older than
 * {@code maxAge}, or the oldest segments while the journal is larger than {@code maxBytes}, are
 * deleted, but never a segment holding a record newer than the newest sound snapshot (without a
 * snapshot nothing is deleted), and never the active segment. Immutable.
 *
 * @param maxAge   records older than this may go; {@link #FOREVER} keeps them
 * @param maxBytes the journal may shrink to this many bytes of segments; {@link Long#MAX_VALUE} for no limit
 */
public record RetentionPolicy(Duration maxAge, long maxBytes) {

    public static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    public RetentionPolicy {
        if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("maxAge must be positive: " + maxAge);
        }
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
    }

    /** Keeps everything. */
    public static RetentionPolicy keepAll() {
        return new RetentionPolicy(FOREVER, Long.MAX_VALUE);
    }

    public RetentionPolicy withMaxAge(Duration age) {
        return new RetentionPolicy(age, maxBytes);
    }

    public RetentionPolicy withMaxBytes(long bytes) {
        return new RetentionPolicy(maxAge, bytes);
    }

    /** Whether a segment whose newest record is from {@code newest} is past {@code maxAge} at {@code now}. */
    public boolean expired(Instant newest, Instant now) {
        return !maxAge.equals(FOREVER) && Duration.between(newest, now).compareTo(maxAge) > 0;
    }
}
