package io.kproxy.backend;

import io.kproxy.events.SyncKind;
import java.util.List;

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
 * @param skipped    objects this transaction's plan newly leaves out as bad input (not those the
 *                   last applied plan already left out; all of them when diffed with no last
 *                   plan), for the engine to log once and count; empty for backends that skip
 *                   nothing
 */
public record Transaction(String mode, SyncKind kind, int operations, String text, Plan result, List<Skipped> skipped) {

    /** A transaction that skips nothing. */
    public Transaction(String mode, SyncKind kind, int operations, String text, Plan result) {
        this(mode, kind, operations, text, result, List.of());
    }

    public Transaction {
        if (mode == null || kind == null || text == null || result == null || skipped == null) {
            throw new IllegalArgumentException("mode, kind, text, result and skipped are required");
        }
        skipped = List.copyOf(skipped);
        if (operations < 0) {
            throw new IllegalArgumentException("operations must not be negative");
        }
        if ((operations == 0) != text.isEmpty()) {
            throw new IllegalArgumentException("a transaction has text exactly when it has operations");
        }
    }

    /** This transaction with {@code newlySkipped} as its skip report. */
    public Transaction withSkipped(List<Skipped> newlySkipped) {
        return new Transaction(mode, kind, operations, text, result, newlySkipped);
    }

    /** Nothing to apply: a no-op sync. */
    public boolean isEmpty() {
        return operations == 0;
    }

    public boolean isFull() {
        return kind == SyncKind.FULL;
    }
}
