package io.kproxy.bench.journal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Commit latencies at 1 µs resolution up to 1 s (one overflow bucket above), recorded from any
 * thread without locks; percentiles read after the iteration. Thread-safe.
 */
final class LatencyRecorder {

    private static final int BUCKETS = 1_000_000;
    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS + 1);

    void record(long nanos) {
        long micros = Math.max(0, nanos / 1_000);
        counts.incrementAndGet((int) Math.min(micros, BUCKETS));
    }

    void reset() {
        for (int i = 0; i <= BUCKETS; i++) {
            counts.set(i, 0);
        }
    }

    long count() {
        long n = 0;
        for (int i = 0; i <= BUCKETS; i++) {
            n += counts.get(i);
        }
        return n;
    }

    /** The latency in µs at or below which {@code q} of the samples fall; -1 with no samples. */
    long percentileMicros(double q) {
        long n = count();
        if (n == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int i = 0; i <= BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return i;
            }
        }
        return BUCKETS;
    }

    String summary() {
        return String.format("commits=%d p50=%.2fms p90=%.2fms p99=%.2fms p99.9=%.2fms max=%.2fms", count(), percentileMicros(0.5) / 1e3,
                percentileMicros(0.9) / 1e3, percentileMicros(0.99) / 1e3, percentileMicros(0.999) / 1e3, percentileMicros(1.0) / 1e3);
    }
}
