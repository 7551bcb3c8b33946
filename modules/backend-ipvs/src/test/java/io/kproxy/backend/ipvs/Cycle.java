package io.kproxy.backend.ipvs;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.SettableClock;
import java.util.List;
import java.util.Optional;

/**
 * The engine's cycle for one backend over the strict fake kernel, as the tests drive it: a full
 * first sync, then incremental render, diff and apply per step at the clock's time. Mutable; one
 * test at a time.
 */
final class Cycle {

    final SettableClock clock;
    final MemoryIpvsKernel kernel = new MemoryIpvsKernel();
    final IpvsBackend backend;
    private final Transaction first;
    private NodeState state;
    private Plan applied;

    /** Syncs {@code specs} into an empty kernel at the clock's time; {@link #first()} is that transaction. */
    Cycle(SettableClock clock, List<States.PortSpec> specs) throws Exception {
        this.clock = clock;
        this.backend = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), clock);
        this.state = IpvsStates.state(specs);
        this.first = backend.diff(Optional.empty(), backend.render(state), SyncOptions.at(clock.instant()));
        backend.apply(first);
        this.applied = first.result();
    }

    Transaction first() {
        return first;
    }

    /** Renders {@code specs} on top of the last plan, diffs against it and applies. */
    Transaction sync(List<States.PortSpec> specs) throws Exception {
        NodeState s = IpvsStates.state(specs);
        Plan plan = backend.renderIncremental(applied, s, StateDelta.between(state, s));
        Transaction tx = backend.diff(Optional.of(applied), plan, SyncOptions.at(clock.instant()));
        backend.apply(tx);
        applied = tx.result();
        state = s;
        return tx;
    }

    Plan applied() {
        return applied;
    }
}
