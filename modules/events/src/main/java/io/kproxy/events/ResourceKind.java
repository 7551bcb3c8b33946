package io.kproxy.events;

/** The kinds of API object the source watches. The order is part of the record format: append only. */
public enum ResourceKind {
    SERVICE,
    ENDPOINT_SLICE,
    NODE,
    /** {@code networking.k8s.io/v1} ServiceCIDR (cluster-scoped; keyed by name). */
    SERVICE_CIDR
}
