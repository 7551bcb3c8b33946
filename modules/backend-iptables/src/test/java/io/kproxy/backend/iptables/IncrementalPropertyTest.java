package io.kproxy.backend.iptables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded property tests: incremental render equals full render, and the partial and full
 * transactions applied one after the other to the strict fake leave it equal to a full sync of
 * the final state into an empty one. Includes crossings of the large-cluster threshold.
 */
class IncrementalPropertyTest {

    static long[] seeds() {
        long base = Long.getLong("kproxy.seed", 20261122L);
        long[] s = new long[12];
        for (int i = 0; i < s.length; i++) {
            s[i] = base + i * 7919L;
        }
        return s;
    }

    static StateDelta delta(NodeState before, NodeState after, Random random) {
        Set<ServicePortName> changed = new HashSet<>();
        for (var pair : new FamilyState[][] {{before.ipv4(), after.ipv4()}, {before.ipv6(), after.ipv6()}}) {
            pair[0].ports().diff(pair[1].ports(), new PersistentMap.DiffVisitor<>() {
                @Override
                public void added(ServicePortName k, ServicePortState v) {
                    changed.add(k);
                }

                @Override
                public void removed(ServicePortName k, ServicePortState v) {
                    changed.add(k);
                }

                @Override
                public void changed(ServicePortName k, ServicePortState b, ServicePortState a) {
                    changed.add(k);
                }
            });
        }
        // A delta may name more than what changed (a no-op update); it must never name less.
        before.ipv4().ports().keySet().stream().filter(k -> random.nextInt(20) == 0).forEach(changed::add);
        return new StateDelta(changed, Set.of(), false, false);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void incrementalRenderAndDiffMatchFullSync(long seed) {
        try {
            run(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("property failed with seed " + seed + " (rerun with -Dkproxy.seed=" + seed + ")", e);
        }
    }

    private void run(long seed) {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        PlanRenderer r = new PlanRenderer(random.nextBoolean() ? Features.DEFAULT : Features.UPSTREAM_TEST);
        // Some seeds start near upstream's large-cluster threshold (1,000 endpoints) to cross it.
        TreeMap<String, States.PortSpec> specs = gen.initial(seed % 3 == 0 ? 480 : 20);
        NodeState state = RandomStates.state(specs);
        IptPlan plan = r.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        FakeIptables kernel = new FakeIptables();
        Transaction first = IptDiff.diff(Optional.empty(), plan, SyncOptions.at(now));
        kernel.apply(first.text());
        IptPlan applied = (IptPlan) first.result();
        for (int step = 0; step < 25; step++) {
            gen.mutate(specs, 1000 + step * 3);
            NodeState next = RandomStates.state(specs);
            IptPlan incremental = r.renderIncremental(plan, next, delta(state, next, random));
            IptPlan full = r.render(next);
            assertThat(incremental.rulesetText()).as("incremental render at step %d", step).isEqualTo(full.rulesetText());
            assertThat(incremental.rulesetHash()).as("incremental hash at step %d", step).isEqualTo(full.rulesetHash());
            if (!incremental.rulesetText().equals(plan.rulesetText())) {
                assertThat(incremental.rulesetHash()).as("a changed ruleset's hash at step %d", step).isNotEqualTo(plan.rulesetHash());
            }
            Transaction tx = IptDiff.diff(Optional.of(applied), incremental, new SyncOptions(now, random.nextInt(8) == 0));
            kernel.apply(tx.text());
            applied = (IptPlan) tx.result();
            state = next;
            plan = incremental;
        }
        FakeIptables fresh = new FakeIptables();
        fresh.apply(IptDiff.diff(Optional.empty(), plan, SyncOptions.at(now)).text());
        assertThat(kernel.dump()).isEqualTo(fresh.dump());
        assertThat(IptDiff.diff(Optional.of(applied), plan, SyncOptions.at(now)).isEmpty()).isTrue();
    }
}
