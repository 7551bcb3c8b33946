package io.kproxy.events;

/**
 * The operator resumed: the agent programs live state again.
 *
 * @param reason why, as the operator said it
 */
public record DataplaneUnpinned(String reason) implements ClusterEvent {

    public DataplaneUnpinned {
        KubeObjects.requireText("reason", reason);
    }

    @Override
    public EventType type() {
        return EventType.DATAPLANE_UNPINNED;
    }
}
