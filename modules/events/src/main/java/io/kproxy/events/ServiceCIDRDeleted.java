package io.kproxy.events;

/**
 * A {@code networking.k8s.io/v1} ServiceCIDR was deleted: its ranges no longer count as service
 * ranges (unless another ServiceCIDR still lists them).
 *
 * @param name              the deleted ServiceCIDR's name
 * @param resourceVersion   the resourceVersion of the last state seen ("" when unknown)
 * @param finalStateUnknown true when the delete was inferred by a relist after a disconnect
 */
public record ServiceCIDRDeleted(String name, String resourceVersion, boolean finalStateUnknown) implements ClusterEvent {

    public ServiceCIDRDeleted {
        KubeObjects.requireSubdomain("name", name);
        KubeObjects.requireResourceVersion(resourceVersion);
    }

    @Override
    public EventType type() {
        return EventType.SERVICE_CIDR_DELETED;
    }
}
