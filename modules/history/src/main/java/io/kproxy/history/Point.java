package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import java.time.Instant;
import java.util.Optional;

/**
 * A point in a journal's history resolved to the state to render: the fold of every record up to
 * {@link #offset()}. Immutable and thread-safe; no null components (absent parts are empty).
 *
 * @param asked   the time asked for, when the point was asked by time
 * @param offset  the last record folded into the state (for a programmed point, the sync's
 *                {@code uptoOffset})
 * @param basis   how the offset was chosen
 * @param sync    the {@code SyncApplied} record in force at {@code asked} (programmed points only)
 * @param failure a {@code SyncFailed} recorded after that sync and before {@code asked}: the kernel
 *                kept the synced ruleset, but the node was failing to program newer changes
 */
public record Point(Optional<Instant> asked, long offset, Basis basis, Optional<Envelope> sync, Optional<Envelope> failure) {

    /** How a point's state was chosen. */
    public enum Basis {
        /** The ruleset the last successful sync at or before the time programmed. */
        PROGRAMMED,
        /** Nothing was recorded as programmed by then: the desired state of the records up to the time. */
        NOTHING_PROGRAMMED,
        /** Asked for: the desired state of the records up to the time, synced or not. */
        DESIRED,
        /** Asked for by offset: the desired state of the records up to it. */
        OFFSET
    }

    public Point {
        if (asked == null || basis == null || sync == null || failure == null) {
            throw new IllegalArgumentException("no null components");
        }
        if (sync.isPresent() && !(sync.get().event() instanceof SyncApplied)) {
            throw new IllegalArgumentException("sync must be a SyncApplied record");
        }
        if (failure.isPresent() && !(failure.get().event() instanceof SyncFailed)) {
            throw new IllegalArgumentException("failure must be a SyncFailed record");
        }
    }

    /** The sync in force, when there is one. */
    public Optional<SyncApplied> applied() {
        return sync.map(e -> (SyncApplied) e.event());
    }

    /**
     * One line saying what the state is: {@code programmed by sync generation 12 (partial,
     * nftables) at 2026-11-22T03:09:58.412Z: records up to #812}.
     */
    public String describe() {
        String what = switch (basis) {
            case PROGRAMMED -> {
                SyncApplied s = applied().orElseThrow();
                yield "programmed by sync generation " + s.generation() + " (" + s.kind().name().toLowerCase() + ", " + Printed.text(s.backend())
                        + ") at " + Describe.time(sync.get().recordedAt()) + ": records up to #" + offset;
            }
            case NOTHING_PROGRAMMED -> "no sync recorded by then; desired state of the records up to #" + offset;
            case DESIRED -> "desired state of the records up to #" + offset + " (programmed or not)";
            case OFFSET -> "desired state of the records up to #" + offset;
        };
        String at = asked.map(t -> Describe.time(t) + ": ").orElse("#" + offset + ": ");
        String failed = failure.map(f -> "; then sync generation " + ((SyncFailed) f.event()).generation() + " failed at "
                + Describe.time(f.recordedAt()) + " (the kernel kept these rules)").orElse("");
        return at + what + failed;
    }
}
