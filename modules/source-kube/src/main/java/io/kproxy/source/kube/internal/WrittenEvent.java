package io.kproxy.source.kube.internal;

import java.util.Objects;

/**
 * An Event the API server accepted: which API holds it and its name, so that its series can be
 * updated. Immutable.
 *
 * @param api       where it was written
 * @param namespace its namespace
 * @param name      its name
 */
public record WrittenEvent(Api api, String namespace, String name) {

    /** The two APIs an Event can be written through. */
    public enum Api {
        /** {@code events.k8s.io/v1}, what upstream's recorder writes. */
        EVENTS_V1,
        /** {@code core/v1}, the fallback for API servers without events.k8s.io/v1 (before v1.19). */
        CORE_V1
    }

    public WrittenEvent {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }
}
