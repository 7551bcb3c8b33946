package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import java.util.Set;

/**
 * The source relisted {@code kind} (after a 410 Gone, a watchdog, or a restart) and these keys
 * were present. Any object of that kind the fold holds whose key is absent here has vanished.
 *
 * @param kind            the resource kind that was relisted
 * @param resourceVersion the list's resourceVersion ("" when the server gave none)
 * @param keysPresent     {@code namespace/name} of every object present ({@code name} for Nodes)
 */
public record SourceRelisted(ResourceKind kind, String resourceVersion, Set<String> keysPresent) implements ClusterEvent {

    public SourceRelisted {
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
        KubeObjects.requireResourceVersion(resourceVersion);
        keysPresent = Set.copyOf(keysPresent);
        for (String k : keysPresent) {
            if (k.isEmpty()) {
                throw new InvalidValueException("keysPresent", k, "keys must not be empty");
            }
        }
    }

    @Override
    public EventType type() {
        return EventType.SOURCE_RELISTED;
    }
}
