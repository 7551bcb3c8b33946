package io.kproxy.source.kube.internal;

import io.kproxy.events.ClusterEvent;

/**
 * Where a {@link KindLedger} sends its events, in order. Implementations may block (a full
 * queue); they return false when the source is stopping and the event was not taken.
 */
public interface EventSink {

    boolean emit(ClusterEvent event) throws InterruptedException;

    /** Runs {@code action} once every event emitted before it is durable. */
    boolean afterDurable(Runnable action) throws InterruptedException;
}
