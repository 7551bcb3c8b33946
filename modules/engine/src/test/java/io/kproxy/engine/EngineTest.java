package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.service;
import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.FoldedState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine's pipeline on virtual time: what is synced, when, and what is recorded. */
class EngineTest {

    private final EngineHarness h = new EngineHarness();

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void nothingIsProgrammedBeforeServicesAndEndpointSlicesHaveBothSynced() {
        h.start(EngineHarness.options(Duration.ofSeconds(1), Duration.ofSeconds(30), 10_000));
        h.append(new io.kproxy.events.ConfigRecorded(new io.kproxy.model.NodeName(EngineHarness.NODE), io.kproxy.model.Json.Obj.EMPTY));
        h.append(service("a", "172.30.0.1").observed(), slice("a", "10.0.1.1").observed(), new SourceSynced(ResourceKind.SERVICE, "1"));
        h.advance(Duration.ofMinutes(5));
        assertThat(h.backend.applied).isEmpty();
        long synced = h.append(new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
        assertThat(h.backend.applied).hasSize(1);
        assertThat(h.backend.applied.getFirst().kind()).isEqualTo(SyncKind.FULL);
        SyncApplied applied = h.events(SyncApplied.class).getFirst();
        assertThat(applied.uptoOffset()).isEqualTo(synced);
        assertThat(applied.generation()).isEqualTo(1);
        assertThat(applied.rulesetHash()).isEqualTo(h.backend.render(h.engine.state().node()).rulesetHash());
    }

    @Test
    void aSyncAfterWhichTheHeapHasGrownByHalfCompactsItAndTheBoundStartsAgainFromThere() {
        long mb = EngineHarness.FakeHeap.MB;
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        assertThat(h.backend.applied).hasSize(1);
        assertThat(h.heap.collections).as("the first sync takes the size, 64 MB").isZero();
        h.heap.committed = 96 * mb; // not past 64 + 32
        h.append(slice("a", "10.0.1.1", "10.0.1.2").resourceVersion("2").observed());
        h.advanceMillis(10);
        assertThat(h.backend.applied).hasSize(2);
        assertThat(h.heap.collections).isZero();
        h.heap.committed = 97 * mb;
        h.append(slice("a", "10.0.1.1", "10.0.1.3").resourceVersion("3").observed());
        h.advanceMillis(10);
        assertThat(h.backend.applied).hasSize(3);
        assertThat(h.heap.collections).isEqualTo(1);
        h.heap.committed = 60 * mb; // 40 MB after the collection: the bound is 60
        h.append(slice("a", "10.0.1.1", "10.0.1.4").resourceVersion("4").observed());
        h.advanceMillis(10);
        assertThat(h.heap.collections).isEqualTo(1);
        h.heap.committed = 61 * mb;
        h.append(slice("a", "10.0.1.1", "10.0.1.5").resourceVersion("5").observed());
        h.advanceMillis(10);
        assertThat(h.backend.applied).hasSize(5);
        assertThat(h.heap.collections).isEqualTo(2);
    }

    @Test
    void theEnginesOwnRecordsNeverTriggerASync() {
        h.start(EngineHarness.options(Duration.ofSeconds(1), Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.advance(Duration.ofMinutes(59));
        assertThat(h.backend.applied).hasSize(1);
        assertThat(h.events(SyncApplied.class)).hasSize(1);
        assertThat(h.engine.state().offset()).isEqualTo(h.log.nextOffset() - 1);
    }

    @Test
    void changesDuringTheMinimumIntervalCoalesceIntoOnePartialSyncOfTheLatestState() {
        h.start(EngineHarness.options(Duration.ofSeconds(1), Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        long last = 0;
        for (int i = 2; i <= 21; i++) {
            h.advanceMillis(10);
            last = h.append(slice("a", "10.0.1.1", "10.0.1." + i).resourceVersion(Integer.toString(i)).observed());
        }
        assertThat(h.backend.applied).hasSize(1);
        h.advanceMillis(1_000 - 200);
        assertThat(h.backend.applied).hasSize(2);
        assertThat(h.backend.applied.get(1).kind()).isEqualTo(SyncKind.PARTIAL);
        assertThat(h.backend.applied.get(1).text()).contains("10.0.1.21:8080").doesNotContain("flush");
        SyncApplied second = h.events(SyncApplied.class).get(1);
        assertThat(second.uptoOffset()).isEqualTo(last);
        assertThat(second.rulesetHash()).isEqualTo(h.backend.render(h.engine.state().node()).rulesetHash());
        assertThat(h.engine.metrics().scrape()).contains("kubeproxy_sync_proxy_rules_endpoint_changes_total 21.0")
                .contains("kubeproxy_sync_proxy_rules_endpoint_changes_pending 0.0");
    }

    @Test
    void aChangeWithNoEffectOnTheNodesStateDoesNotSync() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.append(service("a", "172.30.0.1").annotation("note", "irrelevant").resourceVersion("2").observed());
        h.advance(Duration.ofMinutes(1));
        assertThat(h.backend.applied).hasSize(1);
    }

    @Test
    void aRetryableFailureBacksOffExponentiallyAndTheNextSyncIsFull() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        int[] failures = {3};
        h.backend.failure = tx -> failures[0]-- > 0 ? Optional.of(new KernelException(KernelException.Kind.RETRYABLE, "busy"))
                : Optional.empty();
        long t0 = h.nowMillis();
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        h.advance(Duration.ofSeconds(10));
        // Attempts at 0, +1 s, +2 s, +4 s: Resilience4j's exponential backoff from 1 s.
        assertThat(h.backend.applied).extracting(FakeBackend.Applied::succeeded).containsExactly(true, false, false, false, true);
        assertThat(h.backend.applied.get(1).kind()).isEqualTo(SyncKind.PARTIAL);
        assertThat(h.backend.applied.get(2).kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.backend.applied.get(4).kind()).isEqualTo(SyncKind.FULL);
        assertThat(h.events(SyncFailed.class)).hasSize(3).allMatch(SyncFailed::retryable).extracting(SyncFailed::error)
                .allMatch(e -> e.contains("busy"));
        assertThat(h.events(SyncApplied.class)).extracting(SyncApplied::generation).containsExactly(1L, 5L);
        assertThat(h.nowMillis() - t0).isEqualTo(10_000);
    }

    @Test
    void aFatalFailureIsRetriedAfterTheSyncPeriod() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        boolean[] fail = {true};
        h.backend.failure = tx -> fail[0] ? Optional.of(new KernelException(KernelException.Kind.FATAL, "Error: syntax")) : Optional.empty();
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        h.advance(Duration.ofSeconds(29));
        assertThat(h.backend.applied).hasSize(2);
        fail[0] = false;
        h.advance(Duration.ofSeconds(1));
        assertThat(h.backend.applied).hasSize(3);
        assertThat(h.events(SyncFailed.class).getFirst().retryable()).isFalse();
    }

    @Test
    void aFullSyncRunsAtLeastHourly() {
        h.start(EngineHarness.options(Duration.ofSeconds(1), Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.advance(Duration.ofMinutes(30));
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        h.advance(Duration.ofMinutes(30));
        assertThat(h.backend.applied).extracting(FakeBackend.Applied::kind).containsExactly(SyncKind.FULL, SyncKind.PARTIAL);
        h.advance(Duration.ofMinutes(30));
        assertThat(h.backend.applied).extracting(FakeBackend.Applied::kind).containsExactly(SyncKind.FULL, SyncKind.PARTIAL, SyncKind.FULL);
    }

    @Test
    void unhealthyWhileAQueuedChangeCannotBeProgrammedForTwiceTheSyncPeriod() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(5), 10_000));
        h.bootstrap();
        boolean[] fail = {true};
        h.backend.failure = tx -> fail[0] ? Optional.of(new KernelException(KernelException.Kind.FATAL, "refused")) : Optional.empty();
        h.append(slice("a", "10.0.1.9").resourceVersion("2").observed());
        h.advance(Duration.ofSeconds(9));
        assertThat(h.engine.health().healthz().status()).isEqualTo(200);
        h.advance(Duration.ofSeconds(1));
        assertThat(h.engine.health().healthz().status()).isEqualTo(503);
        assertThat(h.engine.health().livez().status()).isEqualTo(503);
        fail[0] = false;
        h.advance(Duration.ofSeconds(5));
        assertThat(h.engine.health().healthz().status()).isEqualTo(200);
    }

    @Test
    void aRestartResumesFromTheNewestSnapshotAndReprogramsTheSameRulesInOneFullSync() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 5));
        h.bootstrap();
        for (int i = 2; i <= 12; i++) {
            h.append(slice("a", "10.0.1.1", "10.0.1." + i).resourceVersion(Integer.toString(i)).observed());
            h.advanceMillis(100);
        }
        String before = h.events(SyncApplied.class).getLast().rulesetHash();
        FoldedState stateBefore = h.engine.state();
        assertThat(h.log.snapshotAtOrBefore(h.log.nextOffset())).isPresent();
        h.engine.close(Duration.ofSeconds(1));
        h.engine = null;

        try (EngineHarness restarted = new EngineHarness(h.log)) {
            restarted.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 5));
            assertThat(restarted.engine.state().node()).isEqualTo(stateBefore.node());
            assertThat(restarted.backend.applied).hasSize(1);
            assertThat(restarted.backend.applied.getFirst().kind()).isEqualTo(SyncKind.FULL);
            SyncApplied after = restarted.events(SyncApplied.class).getLast();
            assertThat(after.rulesetHash()).isEqualTo(before);
            assertThat(after.generation()).isEqualTo(1);
        }
    }

    @Test
    void networkProgrammingLatencyIsMeasuredFromTheSlicesTriggerTime() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.advance(Duration.ofSeconds(10));
        Instant trigger = h.clock.now().minusMillis(700);
        h.append(slice("a", "10.0.1.9").triggerTime(trigger.toString()).resourceVersion("2").observed());
        String scrape = h.engine.metrics().scrape();
        assertThat(scrape).contains("kubeproxy_network_programming_duration_seconds_bucket{ip_family=\"IPv4\",le=\"0.5\"} 0")
                .contains("kubeproxy_network_programming_duration_seconds_bucket{ip_family=\"IPv4\",le=\"1.0\"} 1");
    }

    @Test
    void triggerTimesFromBeforeTheEngineStartedAreIgnored() {
        h.advance(Duration.ofSeconds(10));
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.append(slice("a", "10.0.1.9").triggerTime("1970-01-01T00:00:01Z").resourceVersion("2").observed());
        assertThat(h.engine.metrics().scrape()).contains("kubeproxy_network_programming_duration_seconds_count{ip_family=\"IPv4\"} 0");
    }

    @Test
    void healthCheckPortsFollowTheProgrammedState() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        ServiceRef lb = new ServiceRef("ns", "lb");
        h.append(service("lb", "172.30.0.2").type("LoadBalancer").externalTrafficPolicy("Local").healthCheckNodePort(30_001)
                .loadBalancerIngress("198.51.100.7").observed());
        assertThat(h.engine.healthChecks().current()).containsKey(lb);
        assertThat(h.engine.healthChecks().answer(lb).orElseThrow().status()).isEqualTo(503);
        h.append(slice("lb", "10.0.1.5").node(EngineHarness.NODE).observed());
        ServiceHealthChecks.Check c = h.engine.healthChecks().current().get(lb);
        assertThat(c.port()).isEqualTo(30_001);
        assertThat(c.localEndpoints()).isEqualTo(1);
        ProxyHealth.Response r = h.engine.healthChecks().answer(lb).orElseThrow();
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\n\t\"service\": {\n\t\t\"namespace\": \"ns\",\n\t\t\"name\": \"lb\"\n\t},\n"
                + "\t\"localEndpoints\": 1,\n\t\"serviceProxyHealthy\": true\n}");
        assertThat(h.engine.healthChecks().answer(new ServiceRef("ns", "a"))).isEmpty();
    }

    @Test
    void deferredBackendWorkGetsAFollowUpSync() {
        h.backend.deferredWork = Optional.of(Instant.EPOCH.plusSeconds(2));
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        assertThat(h.backend.applied).hasSize(1);
        h.backend.deferredWork = Optional.empty();
        h.advance(Duration.ofSeconds(2));
        assertThat(h.backend.applied).hasSize(2);
    }

    @Test
    void udpServicesGetTheirStaleFlowsCleanedAfterTheSync() {
        h.start(EngineHarness.options(Duration.ZERO, Duration.ofSeconds(30), 10_000));
        h.bootstrap();
        h.append(io.kproxy.testkit.ServiceFixture.service("ns", "dns").clusterIP("172.30.0.10").port("dns", 53, "UDP").observed(),
                io.kproxy.testkit.EndpointSliceFixture.slice("ns", "dns-1", "dns").port("dns", 53, "UDP").endpoint("10.0.1.3")
                        .observed());
        assertThat(h.backend.conntrack).isNotEmpty();
    }
}
