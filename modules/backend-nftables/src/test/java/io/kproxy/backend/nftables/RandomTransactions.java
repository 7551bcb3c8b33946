package io.kproxy.backend.nftables;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/** The transactions the diff writes over a seeded random history, for tests of what consumes them. */
final class RandomTransactions {

    private RandomTransactions() {
    }

    /**
     * The full sync of {@code ports} random service ports, then {@code steps} syncs of random
     * changes (incremental renders; about one in {@code fullEvery} a forced full sync), each
     * diffed against the plan the one before left. Empty transactions are kept.
     */
    static List<Transaction> of(long seed, int ports, int steps, int fullEvery) {
        RandomStates gen = new RandomStates(seed);
        Random random = new Random(seed);
        TreeMap<String, States.PortSpec> specs = gen.initial(ports);
        NodeState state = RandomStates.state(specs, NftStates.node());
        NftPlan plan = PlanRenderer.render(state);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        List<Transaction> out = new ArrayList<>();
        Transaction tx = NftDiff.diff(Optional.empty(), plan, SyncOptions.at(now));
        out.add(tx);
        NftPlan applied = (NftPlan) tx.result();
        for (int step = 0; step < steps; step++) {
            gen.mutate(specs, 100 + step * 3);
            NodeState next = RandomStates.state(specs, NftStates.node());
            plan = PlanRenderer.renderIncremental(plan, next, IncrementalProperty.delta(state, next, random));
            now = now.plusMillis(random.nextInt(1500));
            tx = NftDiff.diff(Optional.of(applied), plan, new SyncOptions(now, random.nextInt(fullEvery) == 0));
            out.add(tx);
            applied = (NftPlan) tx.result();
            state = next;
        }
        return out;
    }
}
