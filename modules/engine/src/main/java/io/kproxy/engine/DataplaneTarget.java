package io.kproxy.engine;

import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;

/**
 * Which desired state the dataplane must hold, chosen from the live fold: the one place that
 * decides it. Today it is always the live state; a pinned generation ({@code DataplanePinned},
 * DESIGN.md §7) will make it the state at the pin's offset, without touching the sync cycle.
 *
 * @param node       the state to program
 * @param uptoOffset the log offset that state reflects: {@code SyncApplied.uptoOffset}
 */
record DataplaneTarget(NodeState node, long uptoOffset) {

    static DataplaneTarget of(FoldedState live) {
        return new DataplaneTarget(live.node(), live.offset());
    }
}
