package io.kproxy.app;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.ForwardingBackend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.model.IpAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The agent's backend while the start-up cleanup of the other modes runs beside the state's load
 * and the first list (docs/backends/iptables.md, "Cleanup and other modes"): every call that
 * reads or writes the kernel waits until that cleanup ended, so the first rule this mode writes
 * still comes after the other modes' leftovers are gone, as upstream's {@code platformCleanup}
 * before its proxier. The pure calls (render, diff) do not wait, nor does
 * {@link #willDiffFromKernel}: only the nftables backend reads ahead, the names in its own
 * {@code kube-proxy} tables, which the cleanup of the other modes (iptables, ipvs) never touches;
 * its {@code diffFromKernel} still waits here. Thread-safe as the delegate.
 */
final class AfterCleanup extends ForwardingBackend {

    private final CompletableFuture<?> cleanup;

    /** {@code cleanup} completes (normally) when the other modes' cleanup ended, whatever it found. */
    AfterCleanup(Backend delegate, CompletableFuture<?> cleanup) {
        super(delegate);
        this.cleanup = cleanup;
    }

    private void awaitCleanup() {
        cleanup.join();
    }

    @Override
    public Transaction diffFromKernel(Plan desired, SyncOptions options) throws KernelException {
        awaitCleanup();
        return super.diffFromKernel(desired, options);
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        awaitCleanup();
        super.apply(transaction);
    }

    @Override
    public void check(Transaction transaction) throws KernelException {
        awaitCleanup();
        super.check(transaction);
    }

    @Override
    public void cleanup() throws KernelException {
        awaitCleanup();
        super.cleanup();
    }

    @Override
    public boolean rulesIntact() throws KernelException {
        awaitCleanup();
        return super.rulesIntact();
    }

    @Override
    public Optional<List<IpAddress>> localAddresses() throws KernelException {
        awaitCleanup();
        return super.localAddresses();
    }

    @Override
    public int cleanConntrack(List<ConntrackFilter> filters) throws KernelException {
        awaitCleanup();
        return super.cleanConntrack(filters);
    }
}
