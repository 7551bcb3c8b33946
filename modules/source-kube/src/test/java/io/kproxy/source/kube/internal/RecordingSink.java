package io.kproxy.source.kube.internal;

import io.kproxy.events.ClusterEvent;
import java.util.ArrayList;
import java.util.List;

/** Test-only: an {@link EventSink} that keeps what it is given and runs markers at once. */
final class RecordingSink implements EventSink {

    final List<ClusterEvent> events = new ArrayList<>();
    int markers;
    /** While true, events are refused as a stopping source's queue refuses them. */
    boolean refusing;

    @Override
    public synchronized boolean emit(ClusterEvent event) {
        if (refusing) {
            return false;
        }
        events.add(event);
        return true;
    }

    @Override
    public synchronized boolean afterDurable(Runnable action) {
        markers++;
        action.run();
        return true;
    }

    synchronized List<ClusterEvent> drain() {
        List<ClusterEvent> out = List.copyOf(events);
        events.clear();
        return out;
    }
}
