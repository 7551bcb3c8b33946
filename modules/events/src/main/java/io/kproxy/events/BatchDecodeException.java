package io.kproxy.events;

import java.util.List;

/**
 * A record of a batch given to {@link EventCodec#decodeAll} could not be decoded. Says which one
 * (the first in batch order; records after it may not have been tried), why (the
 * {@link EventDecodeException} that single-record decoding throws, as the cause), and hands over
 * the records before it, decoded, so that a reader can deliver everything up to the damage.
 */
public final class BatchDecodeException extends RuntimeException {

    private final transient List<Envelope> decodedBefore;
    private final int index;
    private final long offset;

    BatchDecodeException(int index, long offset, List<Envelope> decodedBefore, EventDecodeException cause) {
        super("record " + index + " of the batch (offset " + offset + ") cannot be decoded: " + cause.getMessage(), cause);
        this.index = index;
        this.offset = offset;
        this.decodedBefore = decodedBefore;
    }

    /** The position in the batch of the first record that failed. */
    public int index() {
        return index;
    }

    /** That record's offset. */
    public long offset() {
        return offset;
    }

    /** The records before it, decoded, in batch order; immutable, possibly empty. */
    public List<Envelope> decodedBefore() {
        return decodedBefore;
    }

    /** Why the record failed, as {@link EventCodec#decode(long, byte[], int, int)} reports it. */
    @Override
    public synchronized EventDecodeException getCause() {
        return (EventDecodeException) super.getCause();
    }
}
