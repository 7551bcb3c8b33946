package io.kproxy.journal.spi;

import java.util.Arrays;

/**
 * Opaque bytes of folded state, covering every record up to and including {@code offset}.
 * The array is copied in and out, so a snapshot is immutable.
 */
public final class Snapshot {

    private final long offset;
    private final byte[] data;

    public Snapshot(long offset, byte[] data) {
        if (offset < 0) {
            throw new IllegalArgumentException("snapshot offset must not be negative: " + offset);
        }
        this.offset = offset;
        this.data = data.clone();
    }

    public long offset() {
        return offset;
    }

    /** A copy of the bytes. */
    public byte[] data() {
        return data.clone();
    }

    public int size() {
        return data.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Snapshot s && s.offset == offset && Arrays.equals(s.data, data);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(offset) * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "Snapshot[offset=" + offset + ", bytes=" + data.length + "]";
    }
}
