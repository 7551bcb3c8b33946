package io.kproxy.state;

import java.util.List;

/**
 * The result of folding one record: the new state, what changed in the node's desired state,
 * and what was skipped as malformed. Immutable and thread-safe; no null components.
 *
 * @param state      the state after the record
 * @param delta      how {@code state.node()} differs from the previous state's node
 *                   ({@link StateDelta#between})
 * @param rejections parts of the record's object that were skipped, in field order; empty
 *                   when none
 */
public record FoldStep(FoldedState state, StateDelta delta, List<Rejection> rejections) {

    public FoldStep {
        if (state == null || delta == null) {
            throw new IllegalArgumentException("state and delta are required");
        }
        rejections = List.copyOf(rejections);
    }
}
