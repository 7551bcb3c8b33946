package io.kproxy.backend;

import io.kproxy.events.SyncKind;

/**
 * The operations of one sync, produced by the pure {@link Backend#diff} and handed to
 * {@link Backend#apply}: applied atomically or not at all. Immutable and thread-safe.
 *
 * @param mode       the backend mode
 * @param kind       full (everything rewritten) or partial (only what changed)
 * @param operations number of operations (one per command line for nftables)
 * @param text       the operations as text in the backend's language; empty when there is
 *                   nothing to do
 * @param result     the plan the kernel holds once this transaction is applied, including
 *                   deferred work it scheduled: keep it as the next "last applied" plan after a
 *                   successful apply, and drop it after a failure
 */
public record Transaction(String mode, SyncKind kind, int operations, String text, Plan result) {

    public Transaction {
        if (mode == null || kind == null || text == null || result == null) {
            throw new IllegalArgumentException("mode, kind, text and result are required");
        }
        if (operations < 0) {
            throw new IllegalArgumentException("operations must not be negative");
        }
        if ((operations == 0) != text.isEmpty()) {
            throw new IllegalArgumentException("a transaction has text exactly when it has operations");
        }
    }

    /** Nothing to apply: a no-op sync. */
    public boolean isEmpty() {
        return operations == 0;
    }

    public boolean isFull() {
        return kind == SyncKind.FULL;
    }
}
