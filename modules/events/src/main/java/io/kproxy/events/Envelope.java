package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import java.time.Instant;

/**
 * One record of the event log.
 *
 * @param offset     assigned by the log: dense, from 0
 * @param recordedAt when the log accepted the record (monotonic within one log)
 * @param source     who appended it, e.g. {@code source/kube} or {@code engine}
 * @param event      the fact
 */
public record Envelope(long offset, Instant recordedAt, String source, ClusterEvent event) {

    public Envelope {
        if (offset < 0) {
            throw new InvalidValueException("offset", offset, "must not be negative");
        }
        if (recordedAt == null || event == null) {
            throw new IllegalArgumentException("recordedAt and event are required");
        }
        KubeObjects.requireText("source", source);
    }
}
