package io.kproxy.journal.local;

import java.util.Arrays;

/**
 * The journal's readable extent at one moment: its segments in offset order and the offset after
 * the last durable record. A reader takes one view and works on it, so it never sees a
 * half-published commit or a segment list changing under it. Immutable; the writer publishes a
 * new view after each commit, roll or retention pass.
 */
public final class View {

    private final SegmentRef[] refs;
    private final long nextOffset;

    View(SegmentRef[] refs, long nextOffset) {
        this.refs = refs;
        this.nextOffset = nextOffset;
    }

    public int size() {
        return refs.length;
    }

    public SegmentRef get(int i) {
        return refs[i];
    }

    public SegmentRef last() {
        return refs[refs.length - 1];
    }

    /** The offset the next durable record gets. */
    public long nextOffset() {
        return nextOffset;
    }

    /** The first offset held. */
    public long firstOffset() {
        return refs.length == 0 ? nextOffset : Math.min(refs[0].base(), nextOffset);
    }

    /** Index of the segment holding {@code offset}: the last whose base is at most it; 0 when before all. */
    public int floor(long offset) {
        int lo = 0;
        int hi = refs.length - 1;
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (refs[mid].base() <= offset) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The highest offset a reader may expect in segment {@code i} (from the next segment's base or the end). */
    long expectedLast(int i) {
        return i + 1 < refs.length ? refs[i + 1].base() - 1 : nextOffset - 1;
    }

    View withLast(SegmentRef last, long next) {
        SegmentRef[] r = refs.clone();
        r[r.length - 1] = last;
        return new View(r, next);
    }

    View withAppended(SegmentRef sealedLast, SegmentRef active) {
        SegmentRef[] r = Arrays.copyOf(refs, refs.length + 1);
        r[refs.length - 1] = sealedLast;
        r[refs.length] = active;
        return new View(r, nextOffset);
    }

    View withoutFirst(int n) {
        return new View(Arrays.copyOfRange(refs, n, refs.length), nextOffset);
    }
}
