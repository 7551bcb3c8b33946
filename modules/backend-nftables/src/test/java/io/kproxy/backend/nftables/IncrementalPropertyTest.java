package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded property tests: incremental render equals full render (text and ruleset hash; a changed
 * ruleset changes the hash), and the incremental transactions applied one after the other to the
 * fake kernel leave it equal to the full ruleset loaded into an empty one.
 */
class IncrementalPropertyTest {

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void incrementalRenderAndDiffMatchFullRender(long seed) {
        IncrementalProperty.withSeed(seed, this::run);
    }

    private void run(long seed) {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        TreeMap<String, States.PortSpec> specs = gen.initial(20);
        NodeState state = RandomStates.state(specs, NftStates.node());
        NftPlan plan = PlanRenderer.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        FakeNft kernel = new FakeNft();
        Transaction first = NftDiff.diff(Optional.empty(), plan, SyncOptions.at(now));
        kernel.apply(first);
        NftPlan applied = (NftPlan) first.result();
        for (int step = 0; step < 25; step++) {
            gen.mutate(specs, 100 + step * 3);
            NodeState next = RandomStates.state(specs, NftStates.node());
            StateDelta d = IncrementalProperty.delta(state, next, random);
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
