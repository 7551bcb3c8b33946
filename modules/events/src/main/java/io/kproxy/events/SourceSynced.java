package io.kproxy.events;

/**
 * The source finished its initial list of {@code kind}: every object that existed at
 * {@code resourceVersion} has been observed before this record. Nothing is programmed before
 * Services and EndpointSlices have both synced.
 *
 * @param kind            the resource kind that synced
 * @param resourceVersion the list's resourceVersion ("" when the server gave none)
 */
public record SourceSynced(ResourceKind kind, String resourceVersion) implements ClusterEvent {

    public SourceSynced {
        if (kind == null) {
            throw new IllegalArgumentException("kind is required");
        }
        KubeObjects.requireResourceVersion(resourceVersion);
    }

    @Override
    public EventType type() {
        return EventType.SOURCE_SYNCED;
    }
}
