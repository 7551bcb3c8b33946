package io.kproxy.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fixtures build objects the event records accept, and those events survive the codec. */
class FixturesTest {

    private static void roundTrips(ClusterEvent e) {
        byte[] b = EventCodec.encode(Instant.EPOCH, "test", e);
        assertThat(EventCodec.decode(0, b).event()).isEqualTo(e);
    }

    @Test
    void serviceFixtureBuildsAnAcceptedObservation() {
        ServiceFixture f = ServiceFixture.service("ns1", "svc1").resourceVersion("7").type("LoadBalancer").clusterIP("172.30.0.41")
                .clusterIP("fd00::41").ipFamilies("IPv4", "IPv6").port("p80", 80, "TCP", 30080).port("", 53, "UDP")
                .externalIPs("192.168.99.11").loadBalancerIngress("1.2.3.4").loadBalancerIngress("5.6.7.8", "Proxy")
                .loadBalancerSourceRanges("203.0.113.0/25").externalTrafficPolicy("Local").internalTrafficPolicy("Cluster")
                .healthCheckNodePort(32000).sessionAffinity(10800).label("app", "a").annotation("note", "n");
        ServiceObserved e = f.observed();
        assertThat(e.service()).isEqualTo(f.ref());
        assertThat(e.resourceVersion()).isEqualTo("7");
        Json.Obj spec = e.object().object("spec");
        assertThat(spec.string("clusterIP")).contains("172.30.0.41");
        assertThat(spec.array("clusterIPs")).containsExactly(Json.of("172.30.0.41"), Json.of("fd00::41"));
        assertThat(spec.array("ports")).hasSize(2);
        Json.Obj p80 = (Json.Obj) spec.array("ports").getFirst();
        assertThat(p80.string("name")).contains("p80");
        assertThat(p80.integer("nodePort")).contains(30080L);
        Json.Obj unnamed = (Json.Obj) spec.array("ports").get(1);
        assertThat(unnamed.fields()).doesNotContainKeys("name", "nodePort");
        assertThat(spec.object("sessionAffinityConfig").object("clientIP").integer("timeoutSeconds")).contains(10800L);
        assertThat(spec.integer("healthCheckNodePort")).contains(32000L);
        assertThat(e.object().object("status").object("loadBalancer").array("ingress")).hasSize(2);
        assertThat(e.object().object("metadata").string("resourceVersion")).contains("7");
        roundTrips(e);
    }

    @Test
    void serviceFixtureDefaultsAndExternalName() {
        Json.Obj plain = ServiceFixture.service("ns", "plain").build();
        assertThat(plain.object("spec").string("type")).contains("ClusterIP");
        assertThat(plain.object("spec").string("sessionAffinity")).contains("None");
        assertThat(plain.object("spec").fields()).doesNotContainKeys("clusterIP", "ports");
        ServiceObserved ext = ServiceFixture.service("ns", "ext").externalName("db.example.com").observed();
        assertThat(ext.object().object("spec").string("type")).contains("ExternalName");
        roundTrips(ext);
    }

    @Test
    void endpointSliceFixtureBuildsAnAcceptedObservation() {
        EndpointSliceFixture f = EndpointSliceFixture.slice("ns1", "svc1-abc", "svc1").resourceVersion("3").port("p80", 80, "TCP")
                .endpoint("10.180.0.1").node("test-node").zone("zone-a").zoneHints("zone-a").nodeHints("test-node")
                .endpoint("10.180.0.2").ready(false).serving(true).terminating(true).triggerTime("2026-01-01T00:00:00Z");
        EndpointSliceObserved e = f.observed();
        assertThat(e.slice()).isEqualTo(f.ref());
        Json.Obj o = e.object();
        assertThat(o.string("addressType")).contains("IPv4");
        assertThat(o.object("metadata").object("labels").string("kubernetes.io/service-name")).contains("svc1");
        assertThat(o.object("metadata").object("annotations").string("endpoints.kubernetes.io/last-change-trigger-time"))
                .contains("2026-01-01T00:00:00Z");
        List<Json> eps = o.array("endpoints");
        assertThat(eps).hasSize(2);
        Json.Obj first = (Json.Obj) eps.getFirst();
        assertThat(first.object("conditions").fields()).as("conditions only when set").isEmpty();
        assertThat(first.string("nodeName")).contains("test-node");
        assertThat(first.object("hints").array("forZones")).containsExactly(Json.obj("name", Json.of("zone-a")));
        assertThat(first.object("hints").array("forNodes")).containsExactly(Json.obj("name", Json.of("test-node")));
        Json.Obj second = (Json.Obj) eps.get(1);
        assertThat(second.object("conditions")).isEqualTo(Json.obj("ready", Json.of(false), "serving", Json.of(true), "terminating", Json.of(true)));
        assertThat(second.fields()).doesNotContainKeys("nodeName", "zone", "hints");
        roundTrips(e);
    }

    @Test
    void endpointSliceFixtureVariants() {
        EndpointSliceObserved unlabelled = EndpointSliceFixture.unlabelled("ns", "orphan").addressType("IPv6").endpoint("fd00::1").observed();
        assertThat(unlabelled.object().object("metadata").object("labels").fields()).doesNotContainKey("kubernetes.io/service-name");
        assertThat(unlabelled.object().string("addressType")).contains("IPv6");
        roundTrips(unlabelled);
        EndpointSliceObserved raw = EndpointSliceFixture.slice("ns", "raw", "svc").rawPort(Json.obj("protocol", Json.of("TCP"))).observed();
        assertThat(raw.object().array("ports")).containsExactly(Json.obj("protocol", Json.of("TCP")));
        assertThatThrownBy(() -> EndpointSliceFixture.slice("ns", "x", "svc").ready(true)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("endpoint(...)");
    }

    @Test
    void nodeFixtureBuildsAnAcceptedObservation() {
        NodeFixture f = NodeFixture.node("worker-1").resourceVersion("9").zone("zone-a").internalIP("192.168.0.2").externalIP("203.0.113.9")
                .podCIDRs("10.180.0.0/24", "fd00:10:244::/64").taint("node.kubernetes.io/unschedulable", "NoSchedule")
                .deleting("2026-01-01T00:00:00Z");
        NodeObserved e = f.observed();
        assertThat(e.node()).isEqualTo(new NodeName("worker-1"));
        Json.Obj meta = e.object().object("metadata");
        assertThat(meta.fields()).doesNotContainKey("namespace");
        assertThat(meta.object("labels").string("kubernetes.io/hostname")).contains("worker-1");
        assertThat(meta.object("labels").string("topology.kubernetes.io/zone")).contains("zone-a");
        assertThat(meta.string("deletionTimestamp")).contains("2026-01-01T00:00:00Z");
        assertThat(e.object().object("spec").string("podCIDR")).contains("10.180.0.0/24");
        assertThat(e.object().object("status").array("addresses")).hasSize(2);
        roundTrips(e);
    }

    @Test
    void uidsAreStableAndUuidShaped() {
        assertThat(Fixtures.uid("ns/a")).isEqualTo(Fixtures.uid("ns/a")).isNotEqualTo(Fixtures.uid("ns/b"))
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    }

    @Test
    void eventSequenceHasDenseOffsetsAndSteppedTimes() {
        ServiceFixture svc = ServiceFixture.service("ns", "a").clusterIP("172.30.0.1").port("", 80, "TCP");
        EndpointSliceFixture slice = EndpointSliceFixture.slice("ns", "a-1", "a").port("", 80, "TCP").endpoint("10.0.0.1");
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        List<Envelope> log = EventSequence.startingAt(start).step(Duration.ofMillis(500)).config("test-node", Json.Obj.EMPTY).synced()
                .source("source/kube").then(svc.observed(), slice.observed()).deleted(slice).deleted(svc).build();
        assertThat(log).hasSize(8);
        for (int i = 0; i < log.size(); i++) {
            Envelope e = log.get(i);
            assertThat(e.offset()).isEqualTo(i);
            assertThat(e.recordedAt()).isEqualTo(start.plusMillis(500L * i));
            assertThat(EventCodec.decode(e.offset(), EventCodec.encode(e))).isEqualTo(e);
        }
        assertThat(log.get(0).source()).isEqualTo("test");
        assertThat(log.get(4).source()).isEqualTo("source/kube");
        assertThat(log.subList(1, 4)).extracting(Envelope::event).containsExactly(new SourceSynced(ResourceKind.SERVICE, ""),
                new SourceSynced(ResourceKind.ENDPOINT_SLICE, ""), new SourceSynced(ResourceKind.NODE, ""));
        assertThat(log.get(6).event()).isEqualTo(new EndpointSliceDeleted(slice.ref(), "", false));
        assertThat(log.get(7).event()).isEqualTo(new ServiceDeleted(svc.ref(), "", false));
        assertThatThrownBy(() -> log.add(log.getFirst())).isInstanceOf(UnsupportedOperationException.class);
        assertThat(EventSequence.create().then(new SourceSynced(ResourceKind.NODE, "1")).events())
                .containsExactly(new SourceSynced(ResourceKind.NODE, "1"));
        assertThat(EventSequence.create().build()).isEmpty();
    }
}
