package io.kproxy.events;

import java.time.Duration;

/**
 * A backend failed to program the kernel; the next sync will be a full one.
 *
 * @param backend    the mode
 * @param generation the sync counter of this agent run, from 1
 * @param uptoOffset the offset the failed sync tried to reach
 * @param kind       whether the failed sync was full or partial
 * @param error      the kernel's or tool's message
 * @param retryable  false when retrying the same input cannot succeed
 * @param duration   how long the attempt took
 */
public record SyncFailed(String backend, long generation, long uptoOffset, SyncKind kind, String error, boolean retryable,
        Duration duration) implements ClusterEvent {

    public SyncFailed {
        SyncFields.check(backend, generation, uptoOffset, kind, duration);
        KubeObjects.requireText("error", error);
    }

    @Override
    public EventType type() {
        return EventType.SYNC_FAILED;
    }
}
