package io.kproxy.engine;

import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.ForwardingEventLog;
import io.kproxy.journal.spi.EventLogException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * An {@link EventLog} that measures the log it wraps, whatever it is (local journal, Kafka):
 * kproxy's own journal metrics (docs/metrics.md). Appends are counted and timed from the call to
 * durability (group-commit window, write and fsync together: what a caller waits for), failures
 * counted by retryability, and the newest snapshot's offset, size and age exposed. Everything
 * else is passed through unchanged. Thread-safe; blocks only where the wrapped log does.
 */
public final class MeteredEventLog extends ForwardingEventLog {

    /** Commit latencies from 0.1 ms to 2.5 s. */
    private static final Duration[] COMMIT_BUCKETS = java.util.stream.LongStream.of(100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000,
            50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000).mapToObj(Duration::ofNanos).map(d -> d.multipliedBy(1000))
            .toArray(Duration[]::new);

    private final EngineClock clock;
    private final Counter appended;
    private final Counter failedRetryable;
    private final Counter failedFatal;
    private final Timer commit;
    private final AtomicLong snapshotOffset = new AtomicLong(-1);
    private final AtomicLong snapshotBytes = new AtomicLong();
    private final AtomicReference<Instant> snapshotAt = new AtomicReference<>();

    /**
     * @param sizeBytes the log's size on disk, or a negative number when it has none (e.g.
     *                  Kafka); read at each scrape
     */
    public MeteredEventLog(EventLog log, MeterRegistry registry, EngineClock clock, LongSupplier sizeBytes) {
        super(log);
        this.clock = clock;
        appended = Counter.builder("kproxy_journal_appended_records_total").description("Records appended and durable").register(registry);
        failedRetryable = Counter.builder("kproxy_journal_append_failures_total").description("Appends the log refused")
                .tag("retryable", "true").register(registry);
        failedFatal = Counter.builder("kproxy_journal_append_failures_total").description("Appends the log refused")
                .tag("retryable", "false").register(registry);
        commit = Timer.builder("kproxy_journal_append_duration")
                .description("From append to durable (group commit, write and fsync)").serviceLevelObjectives(COMMIT_BUCKETS)
                .register(registry);
        Gauge.builder("kproxy_journal_next_offset", log, EventLog::nextOffset).description("Offset the next record will get")
                .register(registry);
        Gauge.builder("kproxy_journal_size_bytes", sizeBytes, s -> {
            long v = s.getAsLong();
            return v < 0 ? Double.NaN : v;
        }).description("Bytes the journal holds on disk").register(registry);
        Gauge.builder("kproxy_journal_snapshot_offset", snapshotOffset, AtomicLong::get).description("Offset of the newest snapshot")
                .register(registry);
        Gauge.builder("kproxy_journal_snapshot_bytes", snapshotBytes, AtomicLong::get).description("Size of the newest snapshot")
                .register(registry);
        Gauge.builder("kproxy_journal_snapshot_age_seconds", this, MeteredEventLog::snapshotAge)
                .description("Time since the newest snapshot was taken").register(registry);
        Gauge.builder("kproxy_journal_records_since_snapshot", this, m -> m.nextOffset() - 1 - m.snapshotOffset.get())
                .description("Records a restart replays after the newest snapshot").register(registry);
        long last = log.nextOffset() - 1;
        if (last >= 0) {
            log.snapshotAtOrBefore(last).ifPresent(s -> {
                snapshotOffset.set(s.offset());
                snapshotBytes.set(s.size());
                log.read(s.offset(), 1).stream().findFirst().ifPresent(e -> snapshotAt.set(e.recordedAt()));
            });
        }
    }

    private double snapshotAge() {
        Instant at = snapshotAt.get();
        return at == null ? Double.NaN : Math.max(0, (clock.now().toEpochMilli() - at.toEpochMilli()) / 1000.0);
    }

    @Override
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
        long start = clock.nanoTime();
        return super.append(drafts).whenComplete((offsets, error) -> {
            if (error == null) {
                appended.increment(drafts.size());
                commit.record(Duration.ofNanos(clock.nanoTime() - start));
            } else {
                Throwable cause = error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
                (cause instanceof EventLogException e && e.retryable() ? failedRetryable : failedFatal).increment();
            }
        });
    }

    @Override
    public void storeSnapshot(long offset, byte[] data) {
        super.storeSnapshot(offset, data);
        snapshotOffset.set(offset);
        snapshotBytes.set(data.length);
        snapshotAt.set(clock.now());
    }
}
