package io.kproxy.events;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;

/**
 * An EndpointSlice ({@code discovery.k8s.io/v1}) was listed or watched in this state.
 *
 * @param slice           the slice's identity; equals the object's metadata
 * @param resourceVersion the object's {@code metadata.resourceVersion}
 * @param object          the object as the API server sent it, trimmed by {@link KubeObjects#trim}
 */
public record EndpointSliceObserved(EndpointSliceRef slice, String resourceVersion, Json.Obj object) implements ClusterEvent {

    public EndpointSliceObserved {
        KubeObjects.requireResourceVersion(resourceVersion);
        object = KubeObjects.trim(object);
        KubeObjects.requireIdentity("endpointSlice", object, slice.namespace(), slice.name());
    }

    @Override
    public EventType type() {
        return EventType.ENDPOINT_SLICE_OBSERVED;
    }
}
