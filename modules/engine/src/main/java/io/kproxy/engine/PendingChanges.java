package io.kproxy.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Service and EndpointSlice changes folded since the last successful sync, in log order:
 * what upstream's change trackers hold between syncs. They feed the {@code *_changes_pending}
 * gauges and, through the slices' {@code endpoints.kubernetes.io/last-change-trigger-time}
 * annotation, {@code kubeproxy_network_programming_duration_seconds}. Thread-safe (the fold adds,
 * the sync drains); never blocks.
 */
final class PendingChanges {

    /** One folded change that altered the node's desired state; slices may carry their trigger time. */
    record Change(long offset, boolean service, Optional<TriggerTime> triggerTime) {
    }

    private final ArrayDeque<Change> changes = new ArrayDeque<>();
    private long services;
    private long endpoints;

    synchronized void add(Change c) {
        changes.addLast(c);
        if (c.service()) {
            services++;
        } else {
            endpoints++;
        }
    }

    /** Removes and returns every change at or below {@code offset} (a sync covered them). */
    synchronized List<Change> drainUpTo(long offset) {
        List<Change> out = new ArrayList<>();
        while (!changes.isEmpty() && changes.peekFirst().offset() <= offset) {
            Change c = changes.removeFirst();
            if (c.service()) {
                services--;
            } else {
                endpoints--;
            }
            out.add(c);
        }
        return out;
    }

    synchronized long pending(boolean service) {
        return service ? services : endpoints;
    }
}
