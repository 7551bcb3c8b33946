package io.kproxy.engine;

import io.kproxy.backend.FullSyncSchedule;
import io.kproxy.config.ProxyConfig;
import java.time.Duration;

/**
 * How the engine paces syncs and snapshots. Immutable.
 *
 * @param minSyncPeriod       at least this long between the end of one sync and the start of the next
 *                            ({@code minSyncPeriod}; 0 syncs every change at once)
 * @param syncPeriod          the longest a failed sync waits for its retry, and half the health
 *                            timeout ({@code syncPeriod}, docs/upstream-behaviour.md §1.5 row 41)
 * @param maxSyncInterval     a sync runs at least this often; with {@link FullSyncSchedule} it is
 *                            the hourly full resync (upstream's {@code FullSyncPeriod})
 * @param retryBackoffInitial the first retry delay after a retryable apply failure; it doubles up
 *                            to {@code syncPeriod}
 * @param snapshotInterval    records between two snapshots of the folded state
 * @param source              the {@code source} of the records the engine appends
 */
public record EngineOptions(Duration minSyncPeriod, Duration syncPeriod, Duration maxSyncInterval, Duration retryBackoffInitial,
        long snapshotInterval, String source) {

    /** What the engine writes as {@code Envelope.source}. */
    public static final String SOURCE = "engine";

    public EngineOptions {
        if (minSyncPeriod == null || syncPeriod == null || maxSyncInterval == null || retryBackoffInitial == null || source == null) {
            throw new IllegalArgumentException("every option is required");
        }
        if (minSyncPeriod.isNegative() || !syncPeriod.isPositive() || !retryBackoffInitial.isPositive()) {
            throw new IllegalArgumentException("minSyncPeriod must be >= 0, syncPeriod and retryBackoffInitial > 0");
        }
        if (maxSyncInterval.compareTo(minSyncPeriod) < 0) {
            throw new IllegalArgumentException("maxSyncInterval must be >= minSyncPeriod");
        }
        if (snapshotInterval < 1) {
            throw new IllegalArgumentException("snapshotInterval must be positive");
        }
    }

    /** The options a configuration asks for: its sync periods, an hourly full sync, its snapshot interval. */
    public static EngineOptions of(ProxyConfig config) {
        Duration sync = config.syncPeriod();
        Duration backoff = sync.compareTo(Duration.ofSeconds(1)) < 0 ? sync : Duration.ofSeconds(1);
        Duration max = FullSyncSchedule.FULL_SYNC_PERIOD.compareTo(config.minSyncPeriod()) < 0 ? config.minSyncPeriod()
                : FullSyncSchedule.FULL_SYNC_PERIOD;
        return new EngineOptions(config.minSyncPeriod(), sync, max, backoff, config.kproxy().snapshotInterval(), SOURCE);
    }

    /** Upstream's health timeout: twice the sync period. */
    public Duration healthTimeout() {
        return syncPeriod.multipliedBy(2);
    }
}
