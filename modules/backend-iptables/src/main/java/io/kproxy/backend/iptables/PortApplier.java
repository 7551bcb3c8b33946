package io.kproxy.backend.iptables;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.spi.KernelPort;

/**
 * An {@link Applier} over a generic {@link KernelPort} (the in-memory fake, or a port a caller
 * supplies): the transaction text goes to the port as it is, both families with their
 * {@code # IPv4} / {@code # IPv6} headers. Such a port cannot be read, so a full sync adds
 * nothing that depends on the kernel's state, the canary is never missing, and cleanup is the
 * blind variant ({@link Cleanup#blind()}). Thread-safe when the port is.
 */
final class PortApplier implements Applier {

    private final KernelPort port;

    PortApplier(KernelPort port) {
        this.port = port;
    }

    @Override
    public void apply(Transaction tx, IptPlan desired) throws KernelException {
        port.apply(tx.text());
    }

    @Override
    public void check(Transaction tx) throws KernelException {
        port.check(tx.text());
    }

    @Override
    public void cleanup() throws KernelException {
        port.apply(Cleanup.blind());
    }

    @Override
    public boolean rulesIntact() {
        return true;
    }

    @Override
    public String describe() {
        return "kernel-port";
    }

    @Override
    public void close() {
    }
}
