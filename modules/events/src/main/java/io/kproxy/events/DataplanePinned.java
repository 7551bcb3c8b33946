package io.kproxy.events;

import io.kproxy.model.InvalidValueException;

/**
 * An operator rolled the dataplane back: from here on the agent programs the state as of
 * {@code toOffset} while it keeps journaling, until {@link DataplaneUnpinned}.
 *
 * @param toOffset the offset whose state is programmed
 * @param reason   why, as the operator said it
 */
public record DataplanePinned(long toOffset, String reason) implements ClusterEvent {

    public DataplanePinned {
        if (toOffset < 0) {
            throw new InvalidValueException("toOffset", toOffset, "must be an offset (>= 0)");
        }
        KubeObjects.requireText("reason", reason);
    }

    @Override
    public EventType type() {
        return EventType.DATAPLANE_PINNED;
    }
}
