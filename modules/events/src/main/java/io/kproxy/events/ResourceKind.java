package io.kproxy.events;

/** The kinds of API object the source watches. The order is part of the record format: append only. */
public enum ResourceKind {
    SERVICE,
    ENDPOINT_SLICE,
    NODE
}
