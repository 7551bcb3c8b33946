package io.kproxy.source.kube;

import io.kproxy.source.kube.internal.ApiEventRecorder;

/**
 * Records Kubernetes Events as upstream kube-proxy does (docs/operations.md, "Events"):
 * through {@code events.k8s.io/v1}, or {@code core/v1} where the API server lacks it, with
 * repeats of one Event folded into its series and a rate limit per reason.
 *
 * <p>{@link #record} never blocks and never throws for an API failure: an Event that cannot be
 * queued or written is dropped with one counted log line. Thread-safe. {@link #close()} waits a
 * bounded time for queued Events, then drops the rest (counted, one line).
 */
public interface EventRecorder extends AutoCloseable {

    /** Queues {@code event}; returns at once. */
    void record(ApiEvent event);

    /** Writes what is queued within the recorder's close timeout, then stops. Idempotent. */
    @Override
    void close();

    /** A recorder that records nothing (no API server, or tests that do not look at Events). */
    static EventRecorder none() {
        return new EventRecorder() {
            @Override
            public void record(ApiEvent event) {
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * A recorder writing to the API server {@code source} names, with its own client (the same
     * server and credentials as the source's). Reads the kubeconfig (blocking); its thread starts
     * at once and builds the client (so the caller's start does not wait for it); contacts nothing
     * until the first Event.
     *
     * @throws ClientConfigException when the client cannot be configured, as {@link KubeSource#create}
     */
    static EventRecorder toApiServer(KubeSourceOptions source, EventRecorderOptions options) {
        return ApiEventRecorder.start(source, options);
    }
}
