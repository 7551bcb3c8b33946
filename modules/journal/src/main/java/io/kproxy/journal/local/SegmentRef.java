package io.kproxy.journal.local;

import java.time.Instant;

/**
 * What a {@link View} knows about one segment at one moment: how many bytes of it may be read
 * (all of a sealed segment; the durable prefix of the active one), its last offset and time.
 * Immutable.
 *
 * @param segment    the file
 * @param limit      bytes that may be read (records end exactly there)
 * @param lastOffset offset of the last record, {@code base - 1} when the segment is empty
 * @param lastTime   time of the last record, {@link Instant#EPOCH} when empty
 * @param active     whether this is the segment the writer appends to
 * @param damage     empty for a sound segment; otherwise why the records after {@code lastOffset}
 *                   (up to the next segment's base, or the view's end) cannot be served: the bytes
 *                   past {@code limit} are damaged, or the file is unreadable or not a segment
 */
public record SegmentRef(Segment segment, long limit, long lastOffset, Instant lastTime, boolean active, String damage) {

    public SegmentRef {
        if (segment == null || lastTime == null || damage == null) {
            throw new IllegalArgumentException("segment, lastTime and damage are required");
        }
    }

    /** A sound segment. */
    public SegmentRef(Segment segment, long limit, long lastOffset, Instant lastTime, boolean active) {
        this(segment, limit, lastOffset, lastTime, active, "");
    }

    public boolean damaged() {
        return !damage.isEmpty();
    }

    public long base() {
        return segment.base();
    }

    public boolean isEmpty() {
        return lastOffset < segment.base();
    }

    public long recordCount() {
        return lastOffset - segment.base() + 1;
    }

    /** Time of the first record; only meaningful when not empty. */
    public Instant firstTime() {
        return segment.index().size() > 0 ? segment.index().time(0) : lastTime;
    }
}
