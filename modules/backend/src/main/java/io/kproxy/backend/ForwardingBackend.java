package io.kproxy.backend;

import io.kproxy.model.IpAddress;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Backend} that hands every call to another one, for wrappers that change one or two
 * calls (a backend whose applies take simulated time, one that reports other local addresses)
 * and must pass on everything else, defaults included: a wrapper written against the interface
 * alone would silently answer a default (no takeover, no probe) where the wrapped backend has
 * its own. Thread-safety and blocking are the delegate's.
 */
public abstract class ForwardingBackend implements Backend {

    private final Backend delegate;

    protected ForwardingBackend(Backend delegate) {
        this.delegate = delegate;
    }

    /** The wrapped backend. */
    protected final Backend delegate() {
        return delegate;
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
    public Transaction diffFromKernel(Plan desired, SyncOptions options) throws KernelException {
        return delegate.diffFromKernel(desired, options);
    }

    @Override
    public void willDiffFromKernel() {
        delegate.willDiffFromKernel();
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        delegate.apply(transaction);
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
    public boolean rulesIntact() throws KernelException {
        return delegate.rulesIntact();
    }

    @Override
    public Optional<List<IpAddress>> localAddresses() throws KernelException {
        return delegate.localAddresses();
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
