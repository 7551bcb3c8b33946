package io.kproxy.history;

import io.kproxy.model.Printable;

/**
 * A time-travel question that cannot be answered, sorted by whose side the problem is on, so that
 * the CLI can say it in one line and exit with a documented code (docs/operations.md) instead of
 * a stack trace. The message is a sentence for an operator: it names the input, the journal's
 * range or the damaged file. It is one printable line ({@link Printable#escape}) whatever the
 * input, a record or a decoder's message put in it. {@link #reason()} is never null.
 */
public final class HistoryException extends RuntimeException {

    /** Why. */
    public enum Reason {
        /** The question is malformed: a time that does not parse, an unknown mode, --to before --from. */
        BAD_ARGUMENT,
        /** The journal holds no answer: a time before its first record, an offset past its end, an unknown Service. */
        NOT_IN_JOURNAL,
        /** The journal cannot be read: no such directory, not a journal, or damaged where the answer lies. */
        UNREADABLE
    }

    private final Reason reason;

    public HistoryException(Reason reason, String message) {
        super(Printable.escape(message));
        this.reason = reason;
    }

    public HistoryException(Reason reason, String message, Throwable cause) {
        super(Printable.escape(message), cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
