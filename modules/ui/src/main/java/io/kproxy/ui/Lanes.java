package io.kproxy.ui;

import io.kproxy.model.EndpointSliceRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The swimlanes: per Service, its endpoint counts (ready, serving, terminating, summed over its
 * EndpointSlices) after every record that changed them. Fed in offset order by
 * {@link JournalIndex}; not thread-safe (the index serialises access).
 */
final class Lanes {

    /** One Service's series: a point per change, in time order. */
    static final class Lane {
        final String service;
        long[] times = new long[4];
        int[] ready = new int[4];
        int[] serving = new int[4];
        int[] terminating = new int[4];
        int size;
        int cur;
        int curReady;
        int curServing;
        int curTerminating;
        /** Records about the Service (its own and its slices'): how much it churned. */
        int records;

        Lane(String service) {
            this.service = service;
        }

        void add(long timeMs, int dReady, int dServing, int dTerminating) {
            curReady += dReady;
            curServing += dServing;
            curTerminating += dTerminating;
            if (size > 0 && times[size - 1] == timeMs) {
                size--; // one point per millisecond: the last state of it
            }
            if (size == times.length) {
                int n = size * 2;
                times = Arrays.copyOf(times, n);
                ready = Arrays.copyOf(ready, n);
                serving = Arrays.copyOf(serving, n);
                terminating = Arrays.copyOf(terminating, n);
            }
            times[size] = timeMs;
            ready[size] = curReady;
            serving[size] = curServing;
            terminating[size] = curTerminating;
            size++;
        }

        /** The index of the last point at or before {@code timeMs}, or -1. */
        int indexAt(long timeMs) {
            int i = Arrays.binarySearch(times, 0, size, timeMs);
            if (i >= 0) {
                while (i + 1 < size && times[i + 1] == timeMs) {
                    i++;
                }
                return i;
            }
            return -i - 2;
        }
    }

    private final Map<String, Lane> lanes = new HashMap<>();
    private final Map<EndpointSliceRef, SliceCounts> slices = new HashMap<>();

    /** A Service was observed or deleted: it has a lane (possibly empty) and churned. */
    void touched(String service) {
        lanes.computeIfAbsent(service, Lane::new).records++;
    }

    /** A slice was observed with {@code counts} (or deleted: {@link SliceCounts#NONE}). */
    void slice(long timeMs, EndpointSliceRef ref, SliceCounts counts) {
        SliceCounts old = counts == SliceCounts.NONE ? slices.remove(ref) : slices.put(ref, counts);
        if (old == null) {
            old = SliceCounts.NONE;
        }
        if (!old.service().isEmpty() && !old.service().equals(counts.service())) {
            lane(ref.namespace(), old.service()).add(timeMs, -old.ready(), -old.serving(), -old.terminating());
            if (!counts.service().isEmpty()) {
                lane(ref.namespace(), counts.service()).add(timeMs, counts.ready(), counts.serving(), counts.terminating());
            }
        } else if (!counts.service().isEmpty()) {
            lane(ref.namespace(), counts.service()).add(timeMs, counts.ready() - old.ready(), counts.serving() - old.serving(),
                    counts.terminating() - old.terminating());
        } else if (!old.service().isEmpty()) {
            lane(ref.namespace(), old.service()).add(timeMs, -old.ready(), -old.serving(), -old.terminating());
        }
        String owner = counts.service().isEmpty() ? old.service() : counts.service();
        if (!owner.isEmpty()) {
            lane(ref.namespace(), owner).records++;
        }
    }

    /** A relist of EndpointSlices: the slices it does not list are gone. */
    void relisted(long timeMs, Set<String> present) {
        List<EndpointSliceRef> gone = slices.keySet().stream().filter(r -> !present.contains(r.toString())).toList();
        gone.forEach(r -> slice(timeMs, r, SliceCounts.NONE));
    }

    private Lane lane(String namespace, String name) {
        return lanes.computeIfAbsent(namespace + "/" + name, Lane::new);
    }

    Lane get(String service) {
        return lanes.get(service);
    }

    /** Services whose {@code ns/name} contains {@code query} (case-insensitive), the most churned first. */
    List<Lane> search(String query, int limit) {
        String q = query.toLowerCase(Locale.ROOT);
        List<Lane> out = new ArrayList<>();
        for (Lane l : lanes.values()) {
            if (l.service.toLowerCase(Locale.ROOT).contains(q)) {
                out.add(l);
            }
        }
        out.sort(Comparator.comparingInt((Lane l) -> -l.records).thenComparing(l -> l.service));
        return out.subList(0, Math.min(limit, out.size()));
    }

    int size() {
        return lanes.size();
    }
}
