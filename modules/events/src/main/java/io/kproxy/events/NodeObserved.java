package io.kproxy.events;

import io.kproxy.model.Json;
import io.kproxy.model.NodeName;

/**
 * This proxy's own Node was listed or watched in this state. Other nodes are never recorded.
 *
 * @param node            the Node's name; equals the object's metadata
 * @param resourceVersion the object's {@code metadata.resourceVersion}
 * @param object          the object as the API server sent it, trimmed by {@link KubeObjects#trim}
 */
public record NodeObserved(NodeName node, String resourceVersion, Json.Obj object) implements ClusterEvent {

    public NodeObserved {
        KubeObjects.requireResourceVersion(resourceVersion);
        object = KubeObjects.trim(object);
        KubeObjects.requireIdentity("node", object, "", node.value());
    }

    @Override
    public EventType type() {
        return EventType.NODE_OBSERVED;
    }
}
