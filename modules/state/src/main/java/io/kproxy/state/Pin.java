package io.kproxy.state;

/**
 * The dataplane pin in force (docs/design.md, "Time travel and rollback", {@code DataplanePinned}):
 * while it holds, the agent programs the node's desired state as of {@link #toOffset()} instead of
 * the live one, and keeps folding the live log. It is part of the folded state, so a restart
 * honours a pin that is older than the newest snapshot. Immutable and thread-safe; no null
 * components.
 *
 * @param toOffset the offset whose state is programmed (the fold of every record up to and
 *                 including it); always before {@code pinnedAt}
 * @param pinnedAt the offset of the {@code DataplanePinned} record that set this pin
 * @param reason   why, as the operator said it ("" when not given)
 */
public record Pin(long toOffset, long pinnedAt, String reason) {

    public Pin {
        if (toOffset < 0 || pinnedAt <= toOffset) {
            throw new IllegalArgumentException("a pin holds an offset >= 0 before its own record: toOffset=" + toOffset
                    + " pinnedAt=" + pinnedAt);
        }
        if (reason == null) {
            throw new IllegalArgumentException("reason is required (may be empty)");
        }
    }
}
