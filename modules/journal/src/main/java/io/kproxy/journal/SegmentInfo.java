package io.kproxy.journal;

import java.time.Instant;

/**
 * One segment of a local journal as {@link JournalInspector#segments()} lists it. Immutable.
 *
 * @param name        the file name ({@code %020d.seg}, the offset of its first record)
 * @param firstOffset the offset of its first record (its base)
 * @param lastOffset  the offset of its last record; {@code firstOffset - 1} when empty
 * @param firstTime   when its first record was accepted; {@link Instant#EPOCH} when empty
 * @param lastTime    when its last record was accepted; {@link Instant#EPOCH} when empty
 * @param bytes       readable bytes (header and records; a torn tail is not counted)
 * @param sealed      false for the segment the writer appends to (the last one)
 */
public record SegmentInfo(String name, long firstOffset, long lastOffset, Instant firstTime, Instant lastTime, long bytes, boolean sealed) {

    public SegmentInfo {
        if (name == null || firstTime == null || lastTime == null) {
            throw new IllegalArgumentException("name and times are required");
        }
    }

    public long recordCount() {
        return lastOffset - firstOffset + 1;
    }
}
