package io.kproxy.events;

import io.kproxy.model.Printable;

/**
 * Bytes that are not a record this codec can read: truncated, garbage, an unknown format version
 * or event type, or a value that fails validation. Decoding never returns a wrong event; it
 * throws this instead. The message is one printable line ({@link Printable#escape}): it may quote
 * the record's own bytes (a key, a value), which are untrusted, and it reaches logs and
 * {@code journal verify}'s report.
 */
public final class EventDecodeException extends RuntimeException {

    /** What kind of damage was found. */
    public enum Reason {
        /** The bytes end before the record does. */
        TRUNCATED,
        /** Bytes remain after a complete record. */
        TRAILING_BYTES,
        /** The format version byte is not one this build reads. */
        UNKNOWN_VERSION,
        /** The event type tag is not known. */
        UNKNOWN_TYPE,
        /** A structural rule of the format is broken (bad tag, bad length, bad UTF-8, too deep). */
        MALFORMED,
        /** The structure is sound but a value is invalid for its event (e.g. a bad name). */
        INVALID_VALUE
    }

    private final Reason reason;
    private final int position;

    public EventDecodeException(Reason reason, int position, String message) {
        super(Printable.escape(reason + " at byte " + position + ": " + message));
        this.reason = reason;
        this.position = position;
    }

    public EventDecodeException(Reason reason, int position, String message, Throwable cause) {
        super(Printable.escape(reason + " at byte " + position + ": " + message), cause);
        this.reason = reason;
        this.position = position;
    }

    public Reason reason() {
        return reason;
    }

    /** Byte position inside the record where decoding stopped. */
    public int position() {
        return position;
    }
}
