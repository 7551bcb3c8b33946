package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded property tests of the fold (the invariants of docs/design.md, "State"). Each failure
 * message carries the seed and the step, so a failing history can be replayed exactly.
 */
class FoldPropertiesTest {

    static final int STEPS = 300;

    /** Every step: the incremental projection equals one from scratch, and the delta names exactly what changed. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
    void incrementalProjectionAndDeltaAreExact(long seed) {
        RandomCluster gen = new RandomCluster(seed);
        FoldedState s = Logs.fold(Logs.synced());
        int nonEmptyDeltas = 0;
        for (int i = 0; i < STEPS; i++) {
            ClusterEvent e = gen.next();
            String at = "seed=" + seed + " step=" + i + " event=" + e.type();
            FoldStep step = s.apply(envelope(s.offset() + 1, e));
            NodeState before = s.node();
            NodeState after = step.state().node();
            assertThat(after).as(at + ": incremental == from scratch").isEqualTo(Projector.full(step.state().cluster()));
            assertThat(step.delta().changedPorts()).as(at + ": changed ports").isEqualTo(changedByBruteForce(before, after));
            assertThat(step.delta().conntrackCleanup()).as(at + ": conntrack cleanup").isEqualTo(conntrackByBruteForce(before, after));
            assertThat(step.delta().settingsChanged()).as(at).isEqualTo(!before.settings().equals(after.settings()));
            s = step.state();
            nonEmptyDeltas += step.delta().changedPorts().isEmpty() ? 0 : 1;
        }
        assertThat(nonEmptyDeltas).as("seed=" + seed + ": history was not trivial").isGreaterThan(STEPS / 5);
    }

    /** Folding from the start equals folding from any snapshot plus the suffix. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {100, 200, 300, 400})
    void snapshotPlusSuffixEqualsFoldFromStart(long seed) {
        RandomCluster gen = new RandomCluster(seed);
        List<Envelope> log = new ArrayList<>(Logs.synced().build());
        for (int i = 0; i < STEPS; i++) {
            log.add(envelope(log.size(), gen.next()));
        }
        FoldedState full = Logs.fold(FoldedState.initial(), log);
        FoldedState s = FoldedState.initial();
        for (Envelope e : log) {
            s = s.apply(e).state();
            if (e.offset() % 37 == 0) {
                String at = "seed=" + seed + " snapshot at offset " + e.offset();
                byte[] snap = s.toSnapshot();
                FoldedState restored = FoldedState.fromSnapshot(snap);
                assertThat(restored).as(at).isEqualTo(s);
                assertThat(restored.cluster()).as(at).isEqualTo(s.cluster());
                assertThat(restored.node()).as(at).isEqualTo(s.node());
                assertThat(restored.toSnapshot()).as(at + ": encoding is deterministic").isEqualTo(snap);
                FoldedState resumed = Logs.fold(restored, log);
                assertThat(resumed.cluster()).as(at + ": cluster after suffix").isEqualTo(full.cluster());
                assertThat(resumed.node()).as(at + ": node after suffix").isEqualTo(full.node());
                assertThat(resumed.offset()).isEqualTo(full.offset());
            }
        }
    }

    /** An update followed by its revert leaves the node state as it was: the delta between them is empty. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 77, 777, 7777})
    void updateThenRevertIsNoChange(long seed) {
        RandomCluster gen = new RandomCluster(seed);
        Map<String, ServiceObserved> lastService = new HashMap<>();
        Map<String, EndpointSliceObserved> lastSlice = new HashMap<>();
        FoldedState s = Logs.fold(Logs.synced());
        int reverted = 0;
        for (int i = 0; i < STEPS; i++) {
            ClusterEvent e = gen.next();
            remember(e, lastService, lastSlice);
            s = s.apply(envelope(s.offset() + 1, e)).state();
            if (i % 3 != 0) {
                continue;
            }
            String at = "seed=" + seed + " step=" + i;
            ClusterEvent update;
            ClusterEvent revert;
            if (gen.random().nextBoolean()) {
                ServiceObserved u = gen.service();
                boolean present = s.cluster().services().contains(u.service());
                revert = present ? lastService.get(u.service().name()) : new ServiceDeleted(u.service(), "", false);
                update = u;
            } else {
                EndpointSliceObserved u = gen.slice();
                boolean present = s.cluster().slices.containsKey(u.slice());
                revert = present ? lastSlice.get(u.slice().name()) : new EndpointSliceDeleted(u.slice(), "", false);
                update = u;
            }
            FoldStep u = s.apply(envelope(s.offset() + 1, update));
            FoldStep r = u.state().apply(envelope(u.state().offset() + 1, revert));
            assertThat(StateDelta.between(s.node(), r.state().node())).as(at).isEqualTo(StateDelta.EMPTY);
            assertThat(r.state().node()).as(at).isEqualTo(s.node());
            assertThat(u.delta().changedPorts()).as(at + ": the revert undoes what the update did")
                    .isEqualTo(r.delta().changedPorts());
            if (!u.delta().isEmpty()) {
                reverted++;
            }
            remember(update, lastService, lastSlice);
            remember(revert, lastService, lastSlice);
            s = r.state();
        }
        assertThat(reverted).as("seed=" + seed + ": some updates changed something").isPositive();
    }

    private static void remember(ClusterEvent e, Map<String, ServiceObserved> services, Map<String, EndpointSliceObserved> slices) {
        if (e instanceof ServiceObserved so) {
            services.put(so.service().name(), so);
        } else if (e instanceof EndpointSliceObserved eo) {
            slices.put(eo.slice().name(), eo);
        }
    }

    static Envelope envelope(long offset, ClusterEvent e) {
        return new Envelope(offset, Instant.EPOCH.plusSeconds(offset), "test", e);
    }

    static Set<ServicePortName> changedByBruteForce(NodeState a, NodeState b) {
        Set<ServicePortName> out = new TreeSet<>();
        for (IpFamily f : IpFamily.values()) {
            Set<ServicePortName> keys = new HashSet<>(a.family(f).ports().keySet());
            keys.addAll(b.family(f).ports().keySet());
            for (ServicePortName k : keys) {
                if (!Objects.equals(a.family(f).ports().get(k), b.family(f).ports().get(k))) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    /** Row 37 by brute force: a serving endpoint lost (or no longer serving), or the first serving endpoint gained. */
    static Set<ServicePortName> conntrackByBruteForce(NodeState a, NodeState b) {
        Set<ServicePortName> out = new TreeSet<>();
        for (IpFamily f : IpFamily.values()) {
            Set<ServicePortName> keys = new HashSet<>(a.family(f).ports().keySet());
            keys.addAll(b.family(f).ports().keySet());
            for (ServicePortName k : keys) {
                if (k.protocol() != Protocol.UDP) {
                    continue;
                }
                List<Endpoint> was = endpoints(a.family(f).ports().get(k));
                List<Endpoint> is = endpoints(b.family(f).ports().get(k));
                boolean lost = was.stream().filter(Endpoint::serving)
                        .anyMatch(old -> is.stream().noneMatch(n -> n.hostPort().equals(old.hostPort()) && n.serving()));
                boolean gained = was.stream().noneMatch(Endpoint::serving) && is.stream().anyMatch(Endpoint::serving);
                if (lost || gained) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    private static List<Endpoint> endpoints(ServicePortState s) {
        return s == null ? List.of() : s.endpoints();
    }
}
