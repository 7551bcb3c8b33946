package io.kproxy.events;

import io.kproxy.model.EndpointSliceRef;

/**
 * An EndpointSlice was deleted.
 *
 * @param slice             the deleted slice
 * @param resourceVersion   the resourceVersion of the last state seen ("" when unknown)
 * @param finalStateUnknown true when the delete was inferred by a relist after a disconnect
 */
public record EndpointSliceDeleted(EndpointSliceRef slice, String resourceVersion, boolean finalStateUnknown) implements ClusterEvent {

    public EndpointSliceDeleted {
        KubeObjects.requireResourceVersion(resourceVersion);
    }

    @Override
    public EventType type() {
        return EventType.ENDPOINT_SLICE_DELETED;
    }
}
