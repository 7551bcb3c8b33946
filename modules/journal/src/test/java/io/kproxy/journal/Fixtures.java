package io.kproxy.journal;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.spi.EventLog.Draft;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Deterministic events for journal tests: the event for index {@code i} is always the same. */
public final class Fixtures {

    private Fixtures() {
    }

    /** The i-th event: mostly EndpointSlice observations of varying size, sometimes a barrier. */
    public static ClusterEvent event(long i) {
        if (i % 17 == 5) {
            return new SourceSynced(ResourceKind.values()[(int) (i % ResourceKind.values().length)], "rv-" + i);
        }
        String name = "svc-" + (i % 97) + "-" + Long.toString(i, 36);
        List<Json> endpoints = new ArrayList<>();
        for (int e = 0; e < 1 + (int) (i % 5); e++) {
            endpoints.add(Json.obj(
                    "addresses", Json.arr(Json.of("10." + (i % 200) + "." + e + "." + (i % 250))),
                    "conditions", Json.obj("ready", Json.of(e % 2 == 0), "serving", Json.of(true)),
                    "nodeName", Json.of("node-" + (i % 7))));
        }
        Json.Obj obj = Json.obj(
                "apiVersion", Json.of("discovery.k8s.io/v1"),
                "kind", Json.of("EndpointSlice"),
                "metadata", Json.obj("name", Json.of(name), "namespace", Json.of("ns-" + (i % 3)),
                        "resourceVersion", Json.of(Long.toString(1000 + i)),
                        "labels", Json.obj("kubernetes.io/service-name", Json.of("svc-" + (i % 97)))),
                "addressType", Json.of("IPv4"),
                "endpoints", Json.arr(endpoints),
                "ports", Json.arr(Json.obj("name", Json.of("http"), "port", Json.of(8080 + i % 3), "protocol", Json.of("TCP"))));
        return new EndpointSliceObserved(new EndpointSliceRef("ns-" + (i % 3), name), Long.toString(1000 + i), obj);
    }

    public static Draft draft(long i) {
        return new Draft("test/" + (i % 3), event(i));
    }

    public static List<Draft> drafts(long from, int n) {
        List<Draft> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(draft(from + k));
        }
        return out;
    }

    /** A clock tests move by hand. Thread-safe. */
    public static final class MutableClock extends Clock {
        private final AtomicReference<Instant> now;

        public MutableClock(Instant start) {
            this.now = new AtomicReference<>(start);
        }

        public void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }

        public void set(Instant t) {
            now.set(t);
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
