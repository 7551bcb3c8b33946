package io.kproxy.sample.simulator;

import io.kproxy.events.ClusterEvent;
import java.time.Instant;

/**
 * A fact of a scripted history and when it happens. Immutable.
 *
 * @param at     when the source appends it (the record's {@code recordedAt}, unless the log had
 *               already stamped a later time)
 * @param source the record's source ({@code source/kube}, {@code engine})
 * @param event  the fact
 */
record TimedEvent(Instant at, String source, ClusterEvent event) {

    TimedEvent {
        if (at == null || source == null || event == null) {
            throw new IllegalArgumentException("at, source and event are required");
        }
    }
}
