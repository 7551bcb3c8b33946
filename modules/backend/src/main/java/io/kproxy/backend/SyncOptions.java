package io.kproxy.backend;

import java.time.Instant;

/**
 * Parameters of one {@link Backend#diff}: the clock and the engine's decision to force a full
 * sync (hourly, or after a node topology change). Diff is pure: "now" is an input.
 *
 * @param now       the time the sync starts; deferred work due at or before it is done
 * @param forceFull rewrite everything this backend owns even when a last applied plan is known
 */
public record SyncOptions(Instant now, boolean forceFull) {

    public SyncOptions {
        if (now == null) {
            throw new IllegalArgumentException("now is required");
        }
    }

    /** A partial sync at {@code now}. */
    public static SyncOptions at(Instant now) {
        return new SyncOptions(now, false);
    }

    /** A forced full sync at {@code now}. */
    public static SyncOptions fullAt(Instant now) {
        return new SyncOptions(now, true);
    }
}
