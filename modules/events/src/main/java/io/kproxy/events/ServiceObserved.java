package io.kproxy.events;

import io.kproxy.model.Json;
import io.kproxy.model.ServiceRef;

/**
 * A Service was listed or watched in this state (added or updated).
 *
 * @param service         the Service's identity; equals the object's metadata
 * @param resourceVersion the object's {@code metadata.resourceVersion}
 * @param object          the object as the API server sent it, trimmed by {@link KubeObjects#trim}
 */
public record ServiceObserved(ServiceRef service, String resourceVersion, Json.Obj object) implements ClusterEvent {

    public ServiceObserved {
        KubeObjects.requireResourceVersion(resourceVersion);
        object = KubeObjects.trim(object);
        KubeObjects.requireIdentity("service", object, service.namespace(), service.name());
    }

    @Override
    public EventType type() {
        return EventType.SERVICE_OBSERVED;
    }
}
