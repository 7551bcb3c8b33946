package io.kproxy.state;

/**
 * A part of an observed object that the fold skipped because it is malformed, and why. The fold
 * never throws for bad input; it skips what upstream kube-proxy would skip (a service whose
 * cluster IP does not parse, an endpoint whose address does not parse, a slice port without a
 * name, ...) and reports it here so that the engine can log it and emit a warning event.
 * Immutable and thread-safe; no null components.
 *
 * @param offset the log offset of the record that carried the object
 * @param kind   {@code Service}, {@code EndpointSlice}, {@code Node}, {@code Config} or {@code Pin}
 * @param key    the object's key ({@code namespace/name}, a node name, or {@code config})
 * @param field  the path of the bad field, e.g. {@code spec.ports[1].port}; "" for the object
 * @param reason what is wrong and what was done about it
 */
public record Rejection(long offset, String kind, String key, String field, String reason) {

    public Rejection {
        if (kind == null || key == null || field == null || reason == null) {
            throw new IllegalArgumentException("kind, key, field and reason are required");
        }
    }
}
