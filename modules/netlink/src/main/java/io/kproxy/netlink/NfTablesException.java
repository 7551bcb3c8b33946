package io.kproxy.netlink;

import java.util.OptionalInt;

/**
 * The kernel refused an nf_tables batch (or the socket failed before it could answer). Names the
 * refused operation ({@link NfBatch} index and description) when the kernel pointed at one, the
 * errno, and the kernel's extended-ack message when it gave one. {@link #retryable()} sorts
 * transient failures (busy, interrupted, short of memory or socket buffers, no answer) from
 * refusals that will repeat. Immutable.
 */
public final class NfTablesException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int operation;
    private final String operationText;
    private final int errno;
    private final boolean retryable;

    NfTablesException(int operation, String operationText, int errno, String detail, boolean retryable) {
        super(describe(operationText, errno, detail));
        this.operation = operation;
        this.operationText = operationText;
        this.errno = errno;
        this.retryable = retryable;
    }

    private static String describe(String op, int errno, String detail) {
        String m = (op == null ? "nf_tables batch" : op) + ": " + (errno == 0 ? "failed" : Errno.describe(errno));
        return detail == null || detail.isBlank() ? m : m + " (" + detail + ")";
    }

    /** The index of the refused operation in its batch, when the kernel named one. */
    public OptionalInt operation() {
        return operation >= 0 ? OptionalInt.of(operation) : OptionalInt.empty();
    }

    /** The refused operation ({@code NEWRULE ip kube-proxy services}), or null. */
    public String operationText() {
        return operationText;
    }

    /** The errno the kernel answered with, 0 when there was none (no answer). */
    public int errno() {
        return errno;
    }

    public boolean retryable() {
        return retryable;
    }
}
