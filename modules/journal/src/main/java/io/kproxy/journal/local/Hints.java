package io.kproxy.journal.local;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Where recent reads stopped: (segment, next offset, byte position). A sequential reader (a
 * tail, a replay) asks for the offset where its last read ended, and starts there instead of at
 * the nearest index entry, so a replay reads every byte once. Thread-safe, lossy by design.
 */
final class Hints {

    private record Hint(Segment segment, long offset, long position) {
    }

    private static final int SLOTS = 8;
    private final AtomicReferenceArray<Hint> slots = new AtomicReferenceArray<>(SLOTS);

    void remember(Segment segment, long offset, long position) {
        slots.set(slot(offset), new Hint(segment, offset, position));
    }

    /** The byte position of {@code offset} in {@code segment}, or -1 when not remembered. */
    long positionOf(Segment segment, long offset) {
        Hint h = slots.get(slot(offset));
        return h != null && h.segment == segment && h.offset == offset ? h.position : -1;
    }

    private static int slot(long offset) {
        return (int) (offset & (SLOTS - 1));
    }
}
