package io.kproxy.events;

import io.kproxy.model.InvalidValueException;
import java.util.Objects;

/**
 * One undecoded record, as a log holds it: its offset and where its bytes are. Input of
 * {@link EventCodec#decodeAll}. The record does not copy the bytes: whoever builds it must not
 * change {@code bytes[off, off+len)} until decoding is done (a journal that reuses its read buffer
 * copies each payload first). Immutable as far as its own fields go; never null components.
 *
 * @param offset the record's offset in its log (not negative)
 * @param bytes  the array holding the record
 * @param off    where the record starts in {@code bytes}
 * @param len    the record's length in bytes
 */
public record RawRecord(long offset, byte[] bytes, int off, int len) {

    public RawRecord {
        Objects.requireNonNull(bytes, "bytes");
        if (offset < 0) {
            throw new InvalidValueException("offset", offset, "must not be negative");
        }
        Objects.checkFromIndexSize(off, len, bytes.length);
    }

    /** A record that is all of {@code bytes}. */
    public RawRecord(long offset, byte[] bytes) {
        this(offset, bytes, 0, bytes.length);
    }
}
