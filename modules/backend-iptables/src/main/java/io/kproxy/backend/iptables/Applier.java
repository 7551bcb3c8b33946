package io.kproxy.backend.iptables;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.Transaction;

/**
 * The effectful half of the iptables backend: how a transaction reaches the kernel. Blocks;
 * one caller at a time.
 */
interface Applier extends AutoCloseable {

    /** Applies {@code tx} (whose result is {@code desired}). */
    void apply(Transaction tx, IptPlan desired) throws KernelException;

    /** Dry run ({@code iptables-restore --test}). */
    void check(Transaction tx) throws KernelException;

    /** Removes what the iptables mode owns. */
    void cleanup() throws KernelException;

    /** False when a canary chain vanished (see {@code Backend.rulesIntact}). */
    boolean rulesIntact() throws KernelException;

    /** Which implementation programs the kernel, for logs. */
    String describe();

    @Override
    void close();
}
