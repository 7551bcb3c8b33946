package io.kproxy.engine;

import java.time.Instant;
import java.util.Optional;

/**
 * What the agent programs, for {@code kproxy status} and the admin answers. Immutable; no null
 * components (absent values are empty optionals).
 *
 * @param pin         the pin in force, empty while the live state is programmed
 * @param liveOffset  the offset of the last record folded
 * @param firstOffset the first offset the log still holds
 * @param firstTime   when that record was recorded (empty for an empty log)
 * @param lastSync    the last sync record the engine folded, empty before any
 */
public record DataplaneStatus(Optional<PinView> pin, long liveOffset, long firstOffset, Optional<Instant> firstTime,
        Optional<SyncView> lastSync) {

    public DataplaneStatus {
        if (pin == null || firstTime == null || lastSync == null) {
            throw new IllegalArgumentException("use empty optionals, not null");
        }
    }

    /**
     * A pin as an operator sees it.
     *
     * @param toOffset   the offset whose state is programmed
     * @param toTime     when that record was recorded (empty if the log no longer holds it)
     * @param pinnedAt   the offset of the {@code DataplanePinned} record
     * @param pinnedTime when it was recorded
     * @param reason     the operator's reason ("" when none)
     */
    public record PinView(long toOffset, Optional<Instant> toTime, long pinnedAt, Optional<Instant> pinnedTime, String reason) {
    }

    /**
     * A sync record.
     *
     * @param offset     where it is in the log
     * @param applied    {@code SyncApplied} (true) or {@code SyncFailed}
     * @param generation the sync's generation in that agent run
     * @param uptoOffset the offset of the state it programmed (or tried to)
     * @param kind       {@code FULL} or {@code PARTIAL}
     * @param detail     the ruleset hash when applied, the error when failed
     */
    public record SyncView(long offset, boolean applied, long generation, long uptoOffset, String kind, String detail) {
    }
}
