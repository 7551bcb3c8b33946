package io.kproxy.backend.iptables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodeState;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded property tests: incremental render equals full render, and the partial and full
 * transactions applied one after the other to the strict fake leave it equal to a full sync of
 * the final state into an empty one. Includes crossings of the large-cluster threshold.
 */
class IncrementalPropertyTest {

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void incrementalRenderAndDiffMatchFullSync(long seed) {
        IncrementalProperty.withSeed(seed, this::run);
    }

    private void run(long seed) {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed ^ 0x5DEECE66DL);
        PlanRenderer r = new PlanRenderer(random.nextBoolean() ? Features.DEFAULT : Features.UPSTREAM_TEST);
        // Some seeds start near upstream's large-cluster threshold (1,000 endpoints) to cross it.
        TreeMap<String, States.PortSpec> specs = gen.initial(seed % 3 == 0 ? 480 : 20);
        NodeState state = RandomStates.state(specs, IptStates.node());
        IptPlan plan = r.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        FakeIptables kernel = new FakeIptables();
        Transaction first = IptDiff.diff(Optional.empty(), plan, SyncOptions.at(now));
        kernel.apply(first.text());
        IptPlan applied = (IptPlan) first.result();
        for (int step = 0; step < 25; step++) {
            gen.mutate(specs, 1000 + step * 3);
            NodeState next = RandomStates.state(specs, IptStates.node());
            IptPlan incremental = r.renderIncremental(plan, next, IncrementalProperty.delta(state, next, random));
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
