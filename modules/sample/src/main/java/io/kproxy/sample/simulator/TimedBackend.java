package io.kproxy.sample.simulator;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A real backend (rendering, diffing, through a kernel port that goes nowhere) whose applies take
 * virtual time, so that a history recorded on {@link ManualScheduler} time shows sync durations of
 * the size a node measures (2 ms plus 20 µs per operation; docs/benchmarks.md has the real ones).
 * Everything else is the delegate's. Confined to the engine's sync thread, like any backend.
 */
final class TimedBackend implements Backend {

    static final Duration BASE = Duration.ofMillis(2);
    static final Duration PER_OPERATION = Duration.ofNanos(20_000);

    private final Backend delegate;
    private final ManualScheduler time;

    TimedBackend(Backend delegate, ManualScheduler time) {
        this.delegate = delegate;
        this.time = time;
    }

    @Override
    public String mode() {
        return delegate.mode();
    }

    @Override
    public Plan render(NodeState state) {
        return delegate.render(state);
    }

    @Override
    public Plan renderIncremental(Plan previous, NodeState state, StateDelta delta) {
        return delegate.renderIncremental(previous, state, delta);
    }

    @Override
    public Transaction diff(Optional<Plan> lastApplied, Plan desired, SyncOptions options) {
        return delegate.diff(lastApplied, desired, options);
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        delegate.apply(transaction);
        time.advanceBy(BASE.plus(PER_OPERATION.multipliedBy(transaction.operations())));
    }

    @Override
    public void check(Transaction transaction) throws KernelException {
        delegate.check(transaction);
    }

    @Override
    public void cleanup() throws KernelException {
        delegate.cleanup();
    }

    @Override
    public List<ConntrackFilter> conntrackFilters(StateDelta delta, NodeState state) {
        return delegate.conntrackFilters(delta, state);
    }

    @Override
    public int cleanConntrack(List<ConntrackFilter> filters) throws KernelException {
        return delegate.cleanConntrack(filters);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
