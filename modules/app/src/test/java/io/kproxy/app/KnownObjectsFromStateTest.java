package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.LogScan;
import io.kproxy.source.kube.ResumePoint;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.kproxy.source.kube.ObjectFingerprint;
import io.kproxy.state.FoldedState;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceCidrFixture;
import io.kproxy.testkit.ServiceFixture;
import org.junit.jupiter.api.Test;

/** The known objects taken from the folded state equal the source's own scan of the whole log. */
class KnownObjectsFromStateTest {

    @Test
    void equalsTheSourcesScanOfTheLog() {
        MemoryEventLog log = new MemoryEventLog();
        log.append("t", new ConfigRecorded(new NodeName("node-a"), Json.Obj.EMPTY)).join();
        for (int i = 1; i <= 600; i++) {
            log.append("t", ServiceFixture.service("ns", "s" + i).clusterIP("172.30.1." + (i % 250 + 1)).port("p", 80, "TCP")
                    .resourceVersion(Integer.toString(i)).observed()).join();
            log.append("t", EndpointSliceFixture.slice("ns", "s" + i + "-1", "s" + i).port("p", 8080, "TCP").endpoint("10.0.1.1")
                    .resourceVersion(Integer.toString(i)).observed()).join();
        }
        log.append("t", NodeFixture.node("node-a").internalIP("192.168.0.2").observed()).join();
        log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
        log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
        log.append("t", ServiceFixture.service("ns", "s7").clusterIP("172.30.1.8").port("p", 81, "TCP").resourceVersion("900").observed())
                .join();
        log.append("t", new ServiceDeleted(new io.kproxy.model.ServiceRef("ns", "s9"), "901", false)).join();
        log.append("t", ServiceCidrFixture.serviceCidr("kubernetes", "172.30.0.0/16").resourceVersion("5").observed()).join();
        log.append("t", ServiceCidrFixture.serviceCidr("extra", "10.200.0.0/24").resourceVersion("6").observed()).join();
        log.append("t", new SourceSynced(ResourceKind.SERVICE_CIDR, "6")).join();
        log.append("t", ServiceCidrFixture.serviceCidr("extra", "10.200.0.0/24").resourceVersion("7").deleted()).join();

        FoldedState state = FoldedState.initial();
        for (Envelope e : log.read(0, Integer.MAX_VALUE)) {
            state = state.apply(e).state();
        }
        KnownObjects fromState = KnownObjectsFromState.read(log, state.cluster(), ResumePoint.NONE);
        KnownObjects scanned = LogScan.read(log);
        for (ResourceKind k : ResourceKind.values()) {
            assertThat(fromState.objects(k)).as(k.name()).isEqualTo(scanned.objects(k));
            assertThat(fromState.synced(k)).as(k.name()).isEqualTo(scanned.synced(k));
        }
        assertThat(fromState.objects(ResourceKind.SERVICE)).hasSize(599).doesNotContainKey("ns/s9");
        assertThat(fromState.objects(ResourceKind.SERVICE).get("ns/s7").resourceVersion()).isEqualTo("900");
        assertThat(fromState.objects(ResourceKind.SERVICE_CIDR)).containsOnlyKeys("kubernetes");
        assertThat(fromState.synced(ResourceKind.SERVICE_CIDR)).isTrue();
        assertThat(fromState.apiServiceUid()).as("no default/kubernetes in this log").isEmpty();
        assertThat(fromState.resumePoint()).isEqualTo(ResumePoint.NONE);
        assertThat(fromState.deferred(ResourceKind.SERVICE)).isEmpty();

        // With a point to resume at, Services and slices are read only when the source asks: the same fingerprints.
        ResumePoint point = new ResumePoint("https://10.0.0.1:6443", Map.of(ResourceKind.SERVICE, "900"));
        KnownObjects deferred = KnownObjectsFromState.read(log, state.cluster(), point);
        for (ResourceKind k : ResourceKind.values()) {
            Map<String, ObjectFingerprint> all = new HashMap<>(deferred.objects(k));
            all.putAll(deferred.reader().read(k, deferred.deferred(k)));
            assertThat(all).as(k.name()).isEqualTo(scanned.objects(k));
        }
        assertThat(deferred.objects(ResourceKind.SERVICE)).isEmpty();
        assertThat(deferred.deferred(ResourceKind.SERVICE)).hasSize(599);
        assertThat(deferred.deferred(ResourceKind.ENDPOINT_SLICE)).hasSize(600);
        assertThat(deferred.objects(ResourceKind.NODE)).containsOnlyKeys("node-a");
        // one at a time, as a resumed watch's event asks
        KnownObjects again = KnownObjectsFromState.read(log, state.cluster(), point);
        assertThat(again.reader().read(ResourceKind.SERVICE, List.of("ns/s7"))).isEqualTo(Map.of("ns/s7",
                scanned.objects(ResourceKind.SERVICE).get("ns/s7")));
    }

    @Test
    void carriesTheApiServicesUidAndTheResumePoint() {
        MemoryEventLog log = new MemoryEventLog();
        Json.Obj apiService = ServiceFixture.service("default", "kubernetes").clusterIP("172.30.0.1").port("https", 443, "TCP")
                .resourceVersion("3").build();
        Json.Obj meta = apiService.object("metadata");
        log.append("t", new io.kproxy.events.ServiceObserved(new io.kproxy.model.ServiceRef("default", "kubernetes"), "3",
                apiService.with("metadata", meta.with("uid", Json.of("8d3f7c52-0a6e-4c1b-9f55-2c1e0b7d9a11"))))).join();
        log.append("t", new SourceSynced(ResourceKind.SERVICE, "4")).join();
        FoldedState state = FoldedState.initial();
        for (Envelope e : log.read(0, Integer.MAX_VALUE)) {
            state = state.apply(e).state();
        }
        ResumePoint point = new ResumePoint("https://10.0.0.1:6443", Map.of(ResourceKind.SERVICE, "4"));

        KnownObjects known = KnownObjectsFromState.read(log, state.cluster(), point);

        assertThat(known.apiServiceUid()).isEqualTo("8d3f7c52-0a6e-4c1b-9f55-2c1e0b7d9a11");
        assertThat(known.resumePoint()).isEqualTo(point);
        assertThat(known.objects(ResourceKind.SERVICE)).as("read at once, for its uid").containsOnlyKeys("default/kubernetes");
        assertThat(known.deferred(ResourceKind.SERVICE)).isEmpty();
        assertThat(known.synced(ResourceKind.SERVICE)).isTrue();
    }
}
