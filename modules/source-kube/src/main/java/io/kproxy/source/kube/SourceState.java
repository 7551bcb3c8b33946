package io.kproxy.source.kube;

import java.time.Instant;

/**
 * A snapshot of the Kubernetes source's health, for {@code /healthz} and metrics (the engine or
 * the application maps it; this module has no metrics library). Immutable; no null component.
 *
 * @param connected     every informer's watch is currently open
 * @param synced        every kind has finished its first list in this process and the
 *                      resulting records are durable
 * @param lastEventTime when the last informer callback arrived ({@link Instant#EPOCH} before the first)
 * @param relists       completed relists: after a 410 Gone, after a watch failure, or forced by the watchdog
 * @param forcedRelists the relists the watchdog forced because a watch stayed closed too long
 * @param reconnects    watch requests that resumed a watch without a list before them (after a
 *                      disconnect, and also fabric8's routine watch renewal every 5–10 min)
 * @param queueDepth    events waiting to be appended
 * @param appended      events appended (durable) since the source started
 * @param appendRetries appends the log refused with a retryable error and that were retried
 * @param skipped       objects that could not be recorded (invalid names, unconvertible content);
 *                      each one is logged at WARN
 * @param lastError     the last error seen (API server or log), "" when none
 * @param failed        the source stopped for good (the log was closed or is corrupt)
 */
public record SourceState(boolean connected, boolean synced, Instant lastEventTime, long relists, long forcedRelists,
                          long reconnects, int queueDepth, long appended, long appendRetries, long skipped,
                          String lastError, boolean failed) {

    public SourceState {
        if (lastEventTime == null || lastError == null) {
            throw new IllegalArgumentException("lastEventTime and lastError are required");
        }
    }

    /** The state before {@link KubeSource#start()}. */
    public static SourceState initial() {
        return new SourceState(false, false, Instant.EPOCH, 0, 0, 0, 0, 0, 0, 0, "", false);
    }
}
