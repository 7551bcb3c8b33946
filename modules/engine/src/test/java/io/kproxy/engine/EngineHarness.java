package io.kproxy.engine;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * An engine on virtual time over an in-memory log and {@link FakeBackend}: folding, syncing
 * and snapshots all run on one {@link VirtualTimeScheduler}, so a test moves time with
 * {@link #advance} and everything due runs before it returns. Not thread-safe.
 */
final class EngineHarness implements AutoCloseable {

    static final String NODE = "node-a";

    final VirtualTimeScheduler vts = VirtualTimeScheduler.create();
    final EngineClock clock = EngineClock.of(vts);
    final MemoryEventLog log;
    FakeBackend backend = new FakeBackend();
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final FakeHeap heap = new FakeHeap();
    Engine engine;

    /** A heap that grows only when a test says so, and that a collection brings down to {@link #AFTER_COLLECTION}. */
    static final class FakeHeap implements Engine.Heap {
        static final long MB = 1L << 20;
        static final long AFTER_COLLECTION = 40 * MB;
        long committed = 64 * MB;
        int collections;

        @Override
        public long committed() {
            return committed;
        }

        @Override
        public void collect() {
            collections++;
            committed = AFTER_COLLECTION;
        }
    }

    EngineHarness() {
        this(null);
    }

    /** A harness over an existing log (a restart), or a new one when {@code existing} is null. */
    EngineHarness(MemoryEventLog existing) {
        this.log = existing != null ? existing : new MemoryEventLog(new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return clock.now();
            }
        });
    }

    static EngineOptions options(Duration min, Duration sync, long snapshotInterval) {
        return new EngineOptions(min, sync, Duration.ofHours(1), Duration.ofSeconds(1), snapshotInterval, EngineOptions.SOURCE);
    }

    Engine start(EngineOptions options) {
        engine = Engine.start(new Engine.Wiring(log, backend, options, registry, clock, vts, vts, vts, Recorder.inline(), heap));
        return engine;
    }

    long append(ClusterEvent... events) {
        long last = -1;
        for (ClusterEvent e : events) {
            last = log.append("test", e).join();
        }
        return last;
    }

    /** Configuration, one Service with one endpoint, and both sync barriers; returns the last offset. */
    long bootstrap() {
        append(new ConfigRecorded(new NodeName(NODE), Json.obj("mode", Json.of("nftables"))));
        append(service("a", "172.30.0.1").observed(), slice("a", "10.0.1.1").observed());
        append(new SourceSynced(ResourceKind.SERVICE, "1"));
        return append(new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
    }

    /** Appends what a synced source leaves for Service {@code ns/a} with one endpoint: the configuration, the objects, both barriers (offsets 0-4). */
    static void appendSyncedServiceA(EventLog log) {
        log.append("t", new ConfigRecorded(new NodeName(NODE), Json.Obj.EMPTY)).join();
        log.append("t", service("a", "172.30.0.1").observed()).join();
        log.append("t", slice("a", "10.0.1.1").observed()).join();
        log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
        log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
    }

    static ServiceFixture service(String name, String ip) {
        return ServiceFixture.service("ns", name).clusterIP(ip).port("p", 80, "TCP");
    }

    static EndpointSliceFixture slice(String service, String... ips) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("ns", service + "-1", service).port("p", 8080, "TCP");
        for (String ip : ips) {
            s.endpoint(ip);
        }
        return s;
    }

    void advance(Duration d) {
        vts.advanceTimeBy(d);
    }

    void advanceMillis(long ms) {
        advance(Duration.ofMillis(ms));
    }

    long nowMillis() {
        return clock.now().toEpochMilli();
    }

    /** Every event of {@code type} in the log, in order. */
    <T extends ClusterEvent> List<T> events(Class<T> type) {
        return log.read(0, Integer.MAX_VALUE).stream().map(Envelope::event).filter(type::isInstance).map(type::cast).toList();
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.close(Duration.ofSeconds(1));
        }
        vts.dispose();
    }
}
