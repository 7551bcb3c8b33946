package io.kproxy.journal.local;

import io.kproxy.events.EventCodec;
import io.kproxy.events.EventDecodeException;
import io.kproxy.events.Envelope;
import io.kproxy.journal.ReplayDecoder;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Range reads and time lookups over the current {@link View}. Sees only durable records. A read
 * of {@link ReplayDecoder#PARALLEL_MIN} records or more checks frames on the caller and decodes
 * them in batches on the shared replay decoders ({@link BatchRead}); a smaller one decodes on the
 * caller. Both give the same records and the same errors. Thread-safe (every call works on its
 * own cursor); blocks on I/O.
 */
public final class JournalReader {

    /** Receives raw records: offset and payload bytes (valid only during the call). */
    @FunctionalInterface
    public interface RecordVisitor {
        /** Returns false to stop. */
        boolean visit(long offset, byte[] bytes, int off, int len);
    }

    private final Supplier<View> views;
    private final Hints hints = new Hints();
    /** One arena kept between bulk reads (see {@link BatchRead}); a concurrent read makes its own. */
    private final AtomicReference<byte[]> spareArena = new AtomicReference<>();

    public JournalReader(Supplier<View> views) {
        this.views = views;
    }

    /** Up to {@code max} decoded records from {@code from} on; throws if any of them is damaged. */
    public List<Envelope> read(long from, int max) {
        return read(from, max, false);
    }

    /**
     * Like {@link #read(long, int)}, but when damage is met after some records were read, returns
     * those; the next call, starting at the damaged offset, throws. For live tails, which must
     * deliver everything before the damage and then fail.
     */
    public List<Envelope> readUpToDamage(long from, int max) {
        return read(from, max, true);
    }

    private List<Envelope> read(long from, int max, boolean partial) {
        if (max <= 0) {
            return List.of();
        }
        View v = views.get();
        if (from >= v.nextOffset()) {
            return List.of();
        }
        Cursor c = new Cursor(v, from, hints);
        long wanted = Math.min(max, v.nextOffset() - Math.max(from, v.firstOffset()));
        List<Envelope> out = new ArrayList<>((int) Math.min(wanted, 4096));
        boolean complete;
        if (wanted < ReplayDecoder.PARALLEL_MIN) {
            complete = readOneByOne(c, max, partial, out);
        } else {
            BatchRead batch = new BatchRead(c, max, partial, spareArena.getAndSet(null));
            try {
                complete = batch.into(out);
            } finally {
                spareArena.set(batch.arena());
            }
        }
        if (complete) {
            c.remember();
        }
        return out;
    }

    /**
     * A few records (a live tail's latest): decoded straight from the cursor's buffer on the
     * caller. Returns false when it stopped early at damage (partial reads only).
     */
    private static boolean readOneByOne(Cursor c, int max, boolean partial, List<Envelope> out) {
        try {
            while (out.size() < max && c.next()) {
                out.add(decode(c.segment(), c.offset(), c.array(), c.payloadOffset(), c.payloadLength()));
            }
            return true;
        } catch (EventLogException e) {
            if (partial && !out.isEmpty()) {
                return false;
            }
            throw e;
        }
    }

    /** Visits raw records from {@code from} up to (excluding) {@code to}, or until the visitor says stop. */
    public void scan(long from, long to, RecordVisitor visitor) {
        Cursor c = new Cursor(views.get(), from, hints);
        while (c.next() && c.offset() < to) {
            if (!visitor.visit(c.offset(), c.array(), c.payloadOffset(), c.payloadLength())) {
                break;
            }
        }
    }

    /** The first offset whose record was accepted at or after {@code time}. */
    public OptionalLong offsetAt(Instant time) {
        View v = views.get();
        int seg = -1;
        int firstHeld = -1;
        // the last segment holding a record accepted before `time`; segments without a readable
        // record (the active one when empty, or one whose records are lost) are passed over
        for (int i = v.size() - 1; i >= 0; i--) {
            SegmentRef r = v.get(i);
            if (r.isEmpty()) {
                continue;
            }
            firstHeld = i;
            if (seg < 0 && r.firstTime().isBefore(time)) {
                seg = i;
            }
        }
        if (seg < 0) {
            return firstHeld < 0 ? OptionalLong.empty() : OptionalLong.of(Math.max(v.get(firstHeld).base(), v.firstOffset()));
        }
        SegmentRef ref = v.get(seg);
        SparseIndex index = ref.segment().index();
        int entry = Math.max(0, index.lastBefore(time));
        long start = Math.max(index.size() > 0 ? index.offset(entry) : ref.base(), v.firstOffset());
        Cursor c = new Cursor(v, start, null);
        while (c.next()) {
            Instant at = peekTime(c);
            if (!at.isBefore(time)) {
                return OptionalLong.of(c.offset());
            }
        }
        return OptionalLong.empty();
    }

    private static Instant peekTime(Cursor c) {
        try {
            return EventCodec.peekRecordedAt(c.array(), c.payloadOffset(), c.payloadLength());
        } catch (EventDecodeException e) {
            throw undecodable(c.segment(), c.offset(), e);
        }
    }

    static Envelope decode(Segment segment, long offset, byte[] bytes, int off, int len) {
        try {
            return EventCodec.decode(offset, bytes, off, len);
        } catch (EventDecodeException e) {
            throw undecodable(segment, offset, e);
        }
    }

    static EventLogException undecodable(Segment segment, long offset, EventDecodeException e) {
        return new EventLogException(Kind.CORRUPT, "journal segment " + segment.name() + ": the record at offset " + offset
                + " has a sound checksum but cannot be decoded (" + e.getMessage() + "); reading stops there", e);
    }
}
