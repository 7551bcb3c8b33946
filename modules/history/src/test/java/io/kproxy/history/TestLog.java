package io.kproxy.history;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import io.kproxy.testkit.SettableClock;
import java.time.Instant;

/** A small in-memory log written at chosen times, for the library's unit tests. Not thread-safe. */
final class TestLog {

    static final String NODE = "node-a";

    private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    final MemoryEventLog log = new MemoryEventLog(clock);

    /** Appends at {@code 2026-01-01T} + {@code hms} (e.g. {@code 00:00:05}). */
    long at(String hms, ClusterEvent event) {
        clock.set(Instant.parse("2026-01-01T" + hms + "Z"));
        return log.append("test", event).join();
    }

    static Instant t(String hms) {
        return Instant.parse("2026-01-01T" + hms + "Z");
    }

    /** Configuration (nftables, a cluster CIDR), the node, three Services of different kinds, and the barriers, from 00:00:00. */
    static TestLog threeServices() {
        TestLog l = new TestLog();
        l.at("00:00:00", new ConfigRecorded(new NodeName(NODE), Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/16"))));
        l.at("00:00:00.100", NodeFixture.node(NODE).internalIP("192.168.0.2").resourceVersion("7").observed());
        l.at("00:00:01", web().observed());
        l.at("00:00:01.100", ServiceFixture.service("ns", "lb").type("LoadBalancer").clusterIP("172.30.0.11").port("http", 80, "TCP", 30080)
                .loadBalancerIngress("198.51.100.5").externalTrafficPolicy("Local").healthCheckNodePort(32000).resourceVersion("11").observed());
        l.at("00:00:01.200", ServiceFixture.service("ns", "none").clusterIP("172.30.0.12").port("", 53, "UDP").resourceVersion("12").observed());
        l.at("00:00:01.300", ServiceFixture.service("ns", "headless").clusterIP("None").port("http", 80, "TCP").resourceVersion("13").observed());
        l.at("00:00:02", webSlice("21", "10.0.1.11", "10.0.1.12").observed());
        l.at("00:00:02.100", EndpointSliceFixture.slice("ns", "lb-1", "lb").port("http", 8080, "TCP").endpoint("10.0.1.20").node(NODE)
                .resourceVersion("22").observed());
        l.at("00:00:03", new SourceSynced(ResourceKind.SERVICE, "30"));
        l.at("00:00:03", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "30"));
        return l;
    }

    static ServiceFixture web() {
        return ServiceFixture.service("ns", "web").clusterIP("172.30.0.10").port("http", 80, "TCP").resourceVersion("10");
    }

    static EndpointSliceFixture webSlice(String rv, String... ips) {
        EndpointSliceFixture s = EndpointSliceFixture.slice("ns", "web-1", "web").port("http", 8080, "TCP").resourceVersion(rv);
        for (String ip : ips) {
            s.endpoint(ip);
        }
        return s;
    }
}
