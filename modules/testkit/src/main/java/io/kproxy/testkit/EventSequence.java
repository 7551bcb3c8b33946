package io.kproxy.testkit;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds an ordered history of envelopes with dense offsets from 0 and times one {@code step}
 * apart, as a log would record them. Not thread-safe.
 *
 * <pre>{@code
 * List<Envelope> log = EventSequence.startingAt(Instant.parse("2026-01-01T00:00:00Z"))
 *     .config("test-node", Json.Obj.EMPTY).synced()
 *     .then(ServiceFixture.service("ns", "a").clusterIP("172.30.0.1").port("", 80, "TCP").observed())
 *     .build();
 * }</pre>
 */
public final class EventSequence {

    private final List<Envelope> envelopes = new ArrayList<>();
    private Instant next;
    private Duration step = Duration.ofSeconds(1);
    private String source = "test";

    private EventSequence(Instant start) {
        this.next = start;
    }

    public static EventSequence startingAt(Instant start) {
        return new EventSequence(start);
    }

    public static EventSequence create() {
        return startingAt(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /** Time between consecutive records (default one second). */
    public EventSequence step(Duration step) {
        this.step = step;
        return this;
    }

    /** The source stamped on the following records (default {@code test}). */
    public EventSequence source(String source) {
        this.source = source;
        return this;
    }

    /** Appends events, in order. */
    public EventSequence then(ClusterEvent... events) {
        for (ClusterEvent e : events) {
            envelopes.add(new Envelope(envelopes.size(), next, source, e));
            next = next.plus(step);
        }
        return this;
    }

    /** Appends a {@code ConfigRecorded} for {@code node}. */
    public EventSequence config(String node, Json.Obj config) {
        return then(new ConfigRecorded(new NodeName(node), config));
    }

    /** Appends {@code SourceSynced} for Services, EndpointSlices and Nodes. */
    public EventSequence synced() {
        return then(new SourceSynced(ResourceKind.SERVICE, ""), new SourceSynced(ResourceKind.ENDPOINT_SLICE, ""),
                new SourceSynced(ResourceKind.NODE, ""));
    }

    public EventSequence deleted(ServiceFixture service) {
        return then(new ServiceDeleted(service.ref(), "", false));
    }

    public EventSequence deleted(EndpointSliceFixture slice) {
        return then(new EndpointSliceDeleted(slice.ref(), "", false));
    }

    public List<Envelope> build() {
        return List.copyOf(envelopes);
    }

    /** The events alone, in order. */
    public List<ClusterEvent> events() {
        return envelopes.stream().map(Envelope::event).toList();
    }
}
