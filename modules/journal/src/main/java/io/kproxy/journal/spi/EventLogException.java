package io.kproxy.journal.spi;

/**
 * The event log refused or failed an operation. {@link #kind()} sorts the failure; callers decide
 * on {@link #retryable()}. A {@link Kind#CORRUPT} failure of a read names, when the log knows it,
 * the offsets it cannot serve ({@link #lostFirst()}..{@link #lostLast()}), so that a caller that
 * may go on past lost records (the agent, which relists) knows where to resume, and one that must
 * not (time travel) can say which range it needed.
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
    private final long lostFirst;
    private final long lastLost;

    public EventLogException(Kind kind, String message) {
        this(kind, message, null);
    }

    public EventLogException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.lostFirst = -1;
        this.lastLost = -1;
    }

    /** A {@link Kind#CORRUPT} read: offsets {@code lostFirst..lostLast} cannot be served (damaged or missing). */
    public EventLogException(String message, long lostFirst, long lostLast) {
        super(message);
        if (lostFirst < 0 || lostLast < lostFirst) {
            throw new IllegalArgumentException("a lost range needs 0 <= first <= last: " + lostFirst + ".." + lostLast);
        }
        this.kind = Kind.CORRUPT;
        this.lostFirst = lostFirst;
        this.lastLost = lostLast;
    }

    /** The first offset the log cannot serve, or -1 when it did not say (or the failure is not about records). */
    public long lostFirst() {
        return lostFirst;
    }

    /** The last offset of that range, or -1; records after it may be readable again. */
    public long lostLast() {
        return lastLost;
    }

    public Kind kind() {
        return kind;
    }

    public boolean retryable() {
        return kind.retryable;
    }
}
