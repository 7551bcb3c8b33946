package io.kproxy.journal.local;

import java.time.Instant;
import java.util.Arrays;

/**
 * The sparse offset and time index of one segment: every few kilobytes (and always for the first
 * record) the offset, byte position and time of a record. Offsets and times only grow, so both
 * are searched by bisection; a lookup then scans forward at most one interval.
 *
 * <p>One writer appends ({@link #add}); any number of readers search at once. A reader sees a
 * consistent prefix: entries are written into the arrays before the volatile table that counts
 * them is published. Never blocks.
 */
public final class SparseIndex {

    private record Table(long[] offsets, long[] positions, long[] seconds, int[] nanos, int size) {
    }

    private volatile Table table;
    private long lastIndexedPosition = -1;

    SparseIndex() {
        table = new Table(new long[16], new long[16], new long[16], new int[16], 0);
    }

    /** Adds an entry; offsets must increase. Writer only. */
    void add(long offset, long position, Instant time) {
        Table t = table;
        int n = t.size;
        if (n > 0 && offset <= t.offsets[n - 1]) {
            throw new IllegalStateException("index offsets must increase: " + offset + " after " + t.offsets[n - 1]);
        }
        Table w = t;
        if (n == t.offsets.length) {
            int c = n * 2;
            w = new Table(Arrays.copyOf(t.offsets, c), Arrays.copyOf(t.positions, c), Arrays.copyOf(t.seconds, c),
                    Arrays.copyOf(t.nanos, c), n);
        }
        w.offsets[n] = offset;
        w.positions[n] = position;
        w.seconds[n] = time.getEpochSecond();
        w.nanos[n] = time.getNano();
        table = new Table(w.offsets, w.positions, w.seconds, w.nanos, n + 1);
        lastIndexedPosition = position;
    }

    /** Adds an entry when the record at {@code position} is the segment's first or an interval past the last entry. */
    boolean maybeAdd(long offset, long position, Instant time, int intervalBytes) {
        if (lastIndexedPosition < 0 || position - lastIndexedPosition >= intervalBytes) {
            add(offset, position, time);
            return true;
        }
        return false;
    }

    public int size() {
        return table.size;
    }

    public long offset(int i) {
        return table.offsets[check(i)];
    }

    public long position(int i) {
        return table.positions[check(i)];
    }

    public Instant time(int i) {
        Table t = table;
        check(i);
        return Instant.ofEpochSecond(t.seconds[i], t.nanos[i]);
    }

    private int check(int i) {
        if (i < 0 || i >= table.size) {
            throw new IndexOutOfBoundsException(i);
        }
        return i;
    }

    /** The last entry whose offset is at most {@code offset}, or -1. */
    public int floorByOffset(long offset) {
        Table t = table;
        int lo = 0;
        int hi = t.size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (t.offsets[mid] <= offset) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /** The last entry whose time is strictly before {@code time}, or -1. */
    public int lastBefore(Instant time) {
        Table t = table;
        long s = time.getEpochSecond();
        int ns = time.getNano();
        int lo = 0;
        int hi = t.size - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            boolean before = t.seconds[mid] < s || t.seconds[mid] == s && t.nanos[mid] < ns;
            if (before) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
