package io.kproxy.source.kube.internal;

import io.kproxy.events.ResourceKind;

/** What the {@link Watchdog} needs of a kind's informer; {@link KindWatch} is the real one. */
public interface WatchedKind {

    ResourceKind kind();

    /** The watch is open. Never blocks. */
    boolean isWatching();

    /** A list is in progress (or being retried). Never blocks. */
    boolean listing();

    /** Replaces the informer with a new one that lists from scratch; may block. */
    void relist();
}
