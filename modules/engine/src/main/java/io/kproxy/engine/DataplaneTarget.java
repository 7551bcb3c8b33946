package io.kproxy.engine;

import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import io.kproxy.state.Pin;
import java.util.Optional;

/**
 * What the dataplane must hold for one sync (docs/design.md, "Time travel and rollback"): the live
 * desired state, or, while a {@code DataplanePinned} is in force, the desired state as of the pin's
 * offset. {@link DataplaneTargets} chooses it; {@link SyncCycle} programs it without knowing which.
 *
 * @param node       the state to program
 * @param uptoOffset the log offset that state reflects: {@code SyncApplied.uptoOffset} (the
 *                   pin's {@code toOffset} while pinned, so that {@code render --at} of that
 *                   offset reproduces the recorded hash)
 * @param liveOffset the offset of the live fold the choice was made from (at least
 *                   {@code uptoOffset})
 * @param pin        the pin in force, empty while the live state is programmed
 */
record DataplaneTarget(NodeState node, long uptoOffset, long liveOffset, Optional<Pin> pin) {

    DataplaneTarget {
        if (node == null || pin == null) {
            throw new IllegalArgumentException("node and pin are required");
        }
        if (uptoOffset > liveOffset) {
            throw new IllegalArgumentException("a target cannot reflect records the live fold has not reached");
        }
    }

    /** The live state: what the fold says now. */
    static DataplaneTarget of(FoldedState live) {
        return new DataplaneTarget(live.node(), live.offset(), live.offset(), Optional.empty());
    }

    /** The state at {@code pin.toOffset()} ({@code pinned}), chosen while folding {@code live}. */
    static DataplaneTarget pinned(FoldedState live, Pin pin, NodeState pinned) {
        return new DataplaneTarget(pinned, pin.toOffset(), live.offset(), Optional.of(pin));
    }
}
