package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import java.time.Duration;

/** Checks shared by {@link SyncApplied} and {@link SyncFailed}. */
final class SyncFields {

    private SyncFields() {
    }

    static void check(String backend, long generation, long uptoOffset, SyncKind kind, Duration duration) {
        if (backend == null || backend.isEmpty()) {
            throw new InvalidValueException("backend", "", "must not be empty");
        }
        if (generation < 1) {
            throw new InvalidValueException("generation", generation, "must be at least 1");
        }
        if (uptoOffset < -1) {
            throw new InvalidValueException("uptoOffset", uptoOffset, "must be -1 (nothing) or an offset");
        }
        if (kind == null) {
            throw new InvalidValueException("kind", "null", "FULL or PARTIAL is required");
        }
        if (duration == null || duration.isNegative()) {
            throw new InvalidValueException("duration", duration, "must not be negative");
        }
    }
}
