package io.kproxy.backend.nftables;

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
 * Seeded property tests: incremental render equals full render (text and ruleset hash; a changed
 * ruleset changes the hash), and the incremental transactions applied one after the other to the
 * fake kernel leave it equal to the full ruleset loaded into an empty one.
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
    void incrementalRenderAndDiffMatchFullRender(long seed) {
        try {
            run(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("property failed with seed " + seed + " (rerun with -Dkproxy.seed=" + seed + ")", e);
        }
    }

    private void run(long seed) {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        TreeMap<String, States.PortSpec> specs = gen.initial(20);
        NodeState state = RandomStates.state(specs);
        NftPlan plan = PlanRenderer.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        FakeNft kernel = new FakeNft();
        Transaction first = NftDiff.diff(Optional.empty(), plan, SyncOptions.at(now));
        kernel.apply(first);
        NftPlan applied = (NftPlan) first.result();
        for (int step = 0; step < 25; step++) {
            gen.mutate(specs, 100 + step * 3);
            NodeState next = RandomStates.state(specs);
            StateDelta d = delta(state, next, random);
            NftPlan incremental = PlanRenderer.renderIncremental(plan, next, d);
            NftPlan full = PlanRenderer.render(next);
            assertThat(incremental.rulesetText()).as("incremental render at step %d", step).isEqualTo(full.rulesetText());
            assertThat(incremental.rulesetHash()).as("incremental hash at step %d", step).isEqualTo(full.rulesetHash());
            if (!incremental.rulesetText().equals(plan.rulesetText())) {
                assertThat(incremental.rulesetHash()).as("a changed ruleset's hash at step %d", step).isNotEqualTo(plan.rulesetHash());
            }
            now = now.plusMillis(random.nextInt(1500));
            boolean force = random.nextInt(8) == 0;
            Transaction tx = NftDiff.diff(Optional.of(applied), incremental, new SyncOptions(now, force));
            kernel.apply(tx);
            applied = (NftPlan) tx.result();
            state = next;
            plan = incremental;
        }
        // Let every deferred deletion fall due, then compare with the full ruleset loaded fresh.
        Transaction settle = NftDiff.diff(Optional.of(applied), plan, SyncOptions.at(now.plusSeconds(2)));
        kernel.apply(settle);
        assertThat(((NftPlan) settle.result()).stale()).isEmpty();
        FakeNft fresh = new FakeNft();
        fresh.apply(NftDiff.diff(Optional.empty(), plan, SyncOptions.at(now)));
        assertThat(kernel.dump()).isEqualTo(fresh.dump());
        // And a settled plan syncs as a no-op.
        assertThat(NftDiff.diff(Optional.of(settle.result()).map(NftPlan.class::cast), plan, SyncOptions.at(now.plusSeconds(3))).isEmpty())
                .isTrue();
    }
}
