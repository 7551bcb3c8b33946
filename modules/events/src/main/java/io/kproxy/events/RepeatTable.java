package io.kproxy.events;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The strings a record has entered so far (its literal keys, or its short string values), kept
 * as byte ranges of the record in entry order, with a membership test: an open-addressing table
 * of entry numbers keyed by a hash of the bytes. The decoder needs the index (references point
 * into the table) and the test (a literal that is already in the table would give the record a
 * second encoding, so it is refused). Valid UTF-8 has one byte form per string, so equal bytes
 * mean equal strings; comparing bytes spares hashing every decoded {@code String}. Not
 * thread-safe; one per record.
 */
final class RepeatTable {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] buf;
    private int[] from;
    private int[] length;
    private int[] slots; // entry number + 1, 0 = free; length a power of two, at most half full
    private int size;

    /** A table over {@code buf}, sized for about {@code expected} entries before it grows. */
    RepeatTable(byte[] buf, int expected) {
        this.buf = buf;
        int capacity = Math.max(8, expected);
        this.from = new int[capacity];
        this.length = new int[capacity];
        this.slots = new int[Integer.highestOneBit(capacity) << 2]; // 2x to 4x the capacity
    }

    int size() {
        return size;
    }

    /**
     * Appends {@code buf[off, off+len)} as entry {@link #size()} and returns true, or returns
     * false (and changes nothing) when the same bytes are already present.
     */
    boolean add(int off, int len) {
        int mask = slots.length - 1;
        int slot = hash(buf, off, len) & mask;
        for (int e; (e = slots[slot]) != 0; slot = (slot + 1) & mask) {
            int o = from[e - 1];
            if (length[e - 1] == len && Arrays.equals(buf, o, o + len, buf, off, off + len)) {
                return false;
            }
        }
        if (size == from.length) {
            from = Arrays.copyOf(from, size * 2);
            length = Arrays.copyOf(length, size * 2);
        }
        from[size] = off;
        length[size] = len;
        slots[slot] = ++size;
        if (size * 2 > slots.length) {
            rehash();
        }
        return true;
    }

    private void rehash() {
        int[] bigger = new int[slots.length * 2];
        int mask = bigger.length - 1;
        for (int i = 0; i < size; i++) {
            int slot = hash(buf, from[i], length[i]) & mask;
            while (bigger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            bigger[slot] = i + 1;
        }
        slots = bigger;
    }

    /**
     * A hash of the bytes from at most three loads: the first, middle and last eight (or four)
     * bytes, overlapping when shorter. Strings that differ only outside those windows collide,
     * which costs a byte comparison, never a wrong answer; Kubernetes values (uids, addresses,
     * names with random suffixes, node names with a common domain) differ inside them.
     */
    private static int hash(byte[] b, int off, int len) {
        long h;
        if (len >= 8) {
            long first = (long) LONGS.get(b, off);
            long middle = (long) LONGS.get(b, off + ((len - 8) >>> 1));
            long last = (long) LONGS.get(b, off + len - 8);
            h = first * 0x9E3779B97F4A7C15L + middle * 0xC2B2AE3D27D4EB4FL + Long.rotateLeft(last * 0x165667B19E3779F9L, 31);
        } else if (len >= 4) {
            long first = (int) INTS.get(b, off) & 0xFFFFFFFFL;
            long last = (int) INTS.get(b, off + len - 4) & 0xFFFFFFFFL;
            h = (first << 32 | last) * 0x9E3779B97F4A7C15L;
        } else {
            long v = 0;
            for (int i = 0; i < len; i++) {
                v = (v << 8) | (b[off + i] & 0xFF);
            }
            h = v * 0x9E3779B97F4A7C15L;
        }
        h += len;
        h ^= h >>> 29;
        h *= 0xC2B2AE3D27D4EB4FL;
        return (int) (h >>> 32);
    }
}
