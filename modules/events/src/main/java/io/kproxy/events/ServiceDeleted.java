package io.kproxy.events;

import io.kproxy.model.ServiceRef;

/**
 * A Service was deleted.
 *
 * @param service            the deleted Service
 * @param resourceVersion    the resourceVersion of the last state seen ("" when unknown)
 * @param finalStateUnknown  true when the delete was inferred by a relist after a disconnect, so
 *                           the object's final state was never observed
 */
public record ServiceDeleted(ServiceRef service, String resourceVersion, boolean finalStateUnknown) implements ClusterEvent {

    public ServiceDeleted {
        KubeObjects.requireResourceVersion(resourceVersion);
    }

    @Override
    public EventType type() {
        return EventType.SERVICE_DELETED;
    }
}
