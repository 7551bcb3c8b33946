package io.kproxy.journal.spi;

/**
 * The event log refused or failed an operation. {@link #kind()} sorts the failure; callers decide
 * on {@link #retryable()}.
 */
public class EventLogException extends RuntimeException {

    /** Why the log failed. */
    public enum Kind {
        /** No space left (ENOSPC, quota, broker storage). Retry with backoff. */
        FULL(true),
        /** A transient I/O or network error. Retry with backoff. */
        UNAVAILABLE(true),
        /** Stored data failed its checksum or structure check; reading stops at the damage. */
        CORRUPT(false),
        /** Another writer holds the log. */
        LOCKED(false),
        /** The log was closed. */
        CLOSED(false),
        /**
         * The log was opened for reading only (an offline tool on a copied journal, a consumer of
         * a topic it may not write): it refuses appends and snapshots.
         */
        READ_ONLY(false);

        private final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }
    }

    private final Kind kind;

    public EventLogException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public EventLogException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    public boolean retryable() {
        return kind.retryable;
    }
}
