package io.kproxy.history;

import java.time.Instant;

/**
 * What a journal holds: its first and last readable records. Immutable and thread-safe; no null
 * components.
 *
 * @param firstOffset the first offset still held (retention may have removed older ones)
 * @param lastOffset  the last readable offset (before a torn tail)
 * @param firstTime   when the first record was accepted
 * @param lastTime    when the last record was accepted
 */
public record JournalRange(long firstOffset, long lastOffset, Instant firstTime, Instant lastTime) {

    public JournalRange {
        if (firstTime == null || lastTime == null || lastOffset < firstOffset) {
            throw new IllegalArgumentException("a range needs times and lastOffset >= firstOffset");
        }
    }

    /** {@code #0..#1703 (2026-11-22T03:00:00.000Z .. 2026-11-22T04:02:05.004Z)}. */
    @Override
    public String toString() {
        return "#" + firstOffset + "..#" + lastOffset + " (" + Describe.time(firstTime) + " .. " + Describe.time(lastTime) + ")";
    }
}
