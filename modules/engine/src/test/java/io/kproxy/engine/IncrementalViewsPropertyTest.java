package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * Seeded property test: the views a sync keeps incrementally from the states it programmed (the
 * no-local-endpoints gauges, the health-check ports) equal the same views computed from scratch
 * after every sync, over random Service and EndpointSlice histories with syncs that coalesce
 * several changes.
 */
class IncrementalViewsPropertyTest {

    private static final String NODE = "node-a";

    static long[] seeds() {
        long base = Long.getLong("kproxy.seed", 20261122L);
        long[] s = new long[8];
        for (int i = 0; i < s.length; i++) {
            s[i] = base + i * 7919L;
        }
        return s;
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void incrementalViewsEqualViewsFromScratch(long seed) {
        try {
            run(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("property failed with seed " + seed + " (rerun with -Dkproxy.seed=" + seed + ")", e);
        }
    }

    private void run(long seed) {
        Random random = new Random(seed);
        VirtualTimeScheduler vts = VirtualTimeScheduler.create();
        try {
            ServiceHealthChecks checks = new ServiceHealthChecks(new ProxyHealth(EngineClock.of(vts), java.time.Duration.ofSeconds(60),
                    null));
            NoLocalEndpoints counts = new NoLocalEndpoints();
            FoldedState state = FoldedState.initial();
            long[] offset = {0};
            state = fold(state, offset, new ConfigRecorded(new NodeName(NODE), Json.obj("mode", Json.of("nftables"))));
            state = fold(state, offset, new SourceSynced(ResourceKind.SERVICE, "1"));
            state = fold(state, offset, new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
            NodeState programmed = FoldedState.initial().node();
            boolean sawChecks = false;
            boolean sawInternal = false;
            boolean sawExternal = false;
            for (int step = 0; step < 300; step++) {
                state = fold(state, offset, randomEvent(random, step));
                if (random.nextInt(3) != 0) {
                    continue; // coalesced into a later sync
                }
                counts.update(programmed, state.node());
                checks.update(programmed, state.node());
                programmed = state.node();
                NoLocalEndpoints fresh = NoLocalEndpoints.of(programmed);
                for (IpFamily f : IpFamily.values()) {
                    assertThat(counts.internal(f)).as("internal %s at step %d", f, step).isEqualTo(fresh.internal(f));
                    assertThat(counts.external(f)).as("external %s at step %d", f, step).isEqualTo(fresh.external(f));
                }
                assertThat(checks.current()).as("health checks at step %d", step).isEqualTo(ServiceHealthChecks.of(programmed));
                sawChecks |= checks.current().values().stream().anyMatch(c -> c.localEndpoints() > 0);
                sawInternal |= fresh.internal(IpFamily.IPV4) > 0;
                sawExternal |= fresh.external(IpFamily.IPV4) > 0;
            }
            assertThat(sawChecks).as("the history had a health check with local endpoints").isTrue();
            assertThat(sawInternal && sawExternal).as("the history had ports without local endpoints, both policies").isTrue();
        } finally {
            vts.dispose();
        }
    }

    private static FoldedState fold(FoldedState state, long[] offset, ClusterEvent event) {
        return state.apply(new Envelope(offset[0]++, Instant.EPOCH, "test", event)).state();
    }

    private static ClusterEvent randomEvent(Random r, int step) {
        int svc = r.nextInt(6);
        String name = "s" + svc;
        String rv = Integer.toString(step + 10);
        return switch (r.nextInt(6)) {
            case 0 -> new ServiceDeleted(new ServiceRef("ns", name), rv, false);
            case 1 -> new EndpointSliceDeleted(new EndpointSliceRef("ns", name + "-1"), rv, false);
            case 2, 3 -> {
                ServiceFixture s = ServiceFixture.service("ns", name).resourceVersion(rv).clusterIP("172.30.0." + (svc + 1));
                if (r.nextBoolean()) {
                    s.type("LoadBalancer").loadBalancerIngress("198.51.100." + (svc + 1)).port("p", 80, "TCP", 30_100 + svc)
                            .port("q", 81, "UDP", 30_200 + svc);
                    if (r.nextBoolean()) {
                        s.externalTrafficPolicy("Local").healthCheckNodePort(31_000 + svc);
                    }
                } else {
                    s.port("p", 80, "TCP");
                }
                if (r.nextBoolean()) {
                    s.internalTrafficPolicy("Local");
                }
                yield s.observed();
            }
            default -> {
                EndpointSliceFixture e = EndpointSliceFixture.slice("ns", name + "-1", name).resourceVersion(rv).port("p", 8080, "TCP")
                        .port("q", 8081, "UDP");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    e.endpoint("10.0." + svc + "." + (r.nextInt(5) + 1)).node(r.nextInt(3) == 0 ? NODE : "node-b").ready(r.nextInt(4) != 0);
                }
                yield e.observed();
            }
        };
    }
}
