package io.kproxy.backend;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a sync must be a full one (upstream's {@code needFullSync}, {@code pkg/proxy/nftables/proxier.go},
 * and {@code proxyutil.FullSyncPeriod}): on the first sync, after any failed sync (the changes it
 * consumed are lost, so the kernel's state is unknown), after a node topology change, and when
 * the last full sync is older than {@link #FULL_SYNC_PERIOD}. Pure; the clock is a parameter.
 *
 * @param lastFullSync when the last successful full sync started; empty before the first
 * @param lastFailed   the previous sync failed
 */
public record FullSyncSchedule(Optional<Instant> lastFullSync, boolean lastFailed) {

    /** Upstream's {@code FullSyncPeriod}. */
    public static final Duration FULL_SYNC_PERIOD = Duration.ofHours(1);

    public FullSyncSchedule {
        if (lastFullSync == null) {
            throw new IllegalArgumentException("lastFullSync must not be null (use Optional.empty())");
        }
    }

    /** Before the first sync. */
    public static FullSyncSchedule initial() {
        return new FullSyncSchedule(Optional.empty(), false);
    }

    /**
     * Whether the sync starting at {@code now} must be full. When it returns true because no
     * full sync ran yet or the last sync failed, pass {@code Optional.empty()} as the last
     * applied plan to {@link Backend#diff}; when only the period ran out, pass the last plan with
     * {@link SyncOptions#fullAt}.
     */
    public boolean fullSyncDue(Instant now, boolean nodeTopologyChanged) {
        return lastFullSync.isEmpty() || lastFailed || nodeTopologyChanged
                || !lastFullSync.get().plus(FULL_SYNC_PERIOD).isAfter(now);
    }

    /** The schedule after a sync that started at {@code start}. */
    public FullSyncSchedule after(Transaction applied, Instant start, boolean succeeded) {
        if (!succeeded) {
            return new FullSyncSchedule(lastFullSync, true);
        }
        return new FullSyncSchedule(applied.isFull() ? Optional.of(start) : lastFullSync, false);
    }
}
