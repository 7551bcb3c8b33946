package io.kproxy.events;

import io.kproxy.model.NodeName;

/**
 * This proxy's own Node was deleted (upstream's {@code OnNodeDelete}: the node is no longer
 * eligible, which turns {@code /healthz} unhealthy).
 *
 * @param node              the deleted Node
 * @param resourceVersion   the resourceVersion of the last state seen ("" when unknown)
 * @param finalStateUnknown true when the delete was inferred by a relist after a disconnect
 */
public record NodeDeleted(NodeName node, String resourceVersion, boolean finalStateUnknown) implements ClusterEvent {

    public NodeDeleted {
        KubeObjects.requireResourceVersion(resourceVersion);
    }

    @Override
    public EventType type() {
        return EventType.NODE_DELETED;
    }
}
