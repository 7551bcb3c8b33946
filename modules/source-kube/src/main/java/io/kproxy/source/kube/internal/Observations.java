package io.kproxy.source.kube.internal;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.KubeObjects;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.Printable;
import io.kproxy.model.ServiceRef;

/**
 * Events for one kind of object: its key, its observation and its delete. Pure; throws
 * {@link InvalidValueException} for an object whose identity is not a valid name.
 */
public final class Observations {

    private Observations() {
    }

    /** {@code namespace/name}, or {@code name} for the cluster-scoped Nodes and ServiceCIDRs (the keys of {@code SourceRelisted}). */
    public static String key(ResourceKind kind, Json.Obj object) {
        return switch (kind) {
            case SERVICE, ENDPOINT_SLICE -> KubeObjects.namespace(object) + "/" + KubeObjects.name(object);
            case NODE, SERVICE_CIDR -> KubeObjects.name(object);
        };
    }

    /** The observation of {@code object} (trimmed by the event's constructor). */
    public static ClusterEvent observed(ResourceKind kind, Json.Obj object) {
        String rv = KubeObjects.resourceVersion(object);
        return switch (kind) {
            case SERVICE -> new ServiceObserved(new ServiceRef(KubeObjects.namespace(object), KubeObjects.name(object)), rv, object);
            case ENDPOINT_SLICE -> new EndpointSliceObserved(
                    new EndpointSliceRef(KubeObjects.namespace(object), KubeObjects.name(object)), rv, object);
            case NODE -> new NodeObserved(new NodeName(KubeObjects.name(object)), rv, object);
            case SERVICE_CIDR -> new ServiceCIDRObserved(KubeObjects.name(object), rv, object);
        };
    }

    /**
     * {@code resourceVersion} when it is an opaque token ({@link Printable#requireToken}), else ""
     * (unknown). For the records that must not be lost because a version is bad: a delete (the
     * object must leave the fold) and a list's barrier (nothing is programmed before it). An
     * observation with a bad version is skipped instead, as any bad object is: its content is
     * then not trusted either.
     */
    public static String resourceVersionOrUnknown(String resourceVersion) {
        return resourceVersion != null && isToken(resourceVersion) ? resourceVersion : "";
    }

    private static boolean isToken(String resourceVersion) {
        try {
            Printable.requireToken("resourceVersion", resourceVersion);
            return true;
        } catch (InvalidValueException e) {
            return false;
        }
    }

    /** The delete of the object at {@code key} whose last seen version was {@code resourceVersion}. */
    public static ClusterEvent deleted(ResourceKind kind, String key, String resourceVersion, boolean finalStateUnknown) {
        return switch (kind) {
            case SERVICE -> new ServiceDeleted(ServiceRef.parse(key), resourceVersion, finalStateUnknown);
            case ENDPOINT_SLICE -> {
                int slash = key.indexOf('/');
                if (slash < 0) {
                    throw new InvalidValueException("endpointSlice", key, "expected namespace/name");
                }
                yield new EndpointSliceDeleted(new EndpointSliceRef(key.substring(0, slash), key.substring(slash + 1)),
                        resourceVersion, finalStateUnknown);
            }
            case NODE -> new NodeDeleted(new NodeName(key), resourceVersion, finalStateUnknown);
            case SERVICE_CIDR -> new ServiceCIDRDeleted(key, resourceVersion, finalStateUnknown);
        };
    }
}
