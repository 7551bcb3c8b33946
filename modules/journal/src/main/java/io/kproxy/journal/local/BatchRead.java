package io.kproxy.journal.local;

import io.kproxy.events.BatchDecodeException;
import io.kproxy.events.Envelope;
import io.kproxy.events.RawRecord;
import io.kproxy.journal.ReplayDecoder;
import io.kproxy.journal.spi.EventLogException;
import java.util.ArrayList;
import java.util.List;

/**
 * One bulk read: the caller walks the frames with a {@link Cursor} (checksums, offset continuity)
 * and copies each payload into an arena, because the cursor reuses its read buffer; whenever the
 * arena is full, and at the end, the pending records are decoded as one batch by
 * {@link ReplayDecoder}. Decoded envelopes hold no reference to the arena, so it is reused for the
 * next batch, and by the next read: the reader keeps one spare arena of {@link #ARENA} bytes, so
 * that a replay of a million records does not allocate a megabyte per page. A record larger than
 * the arena gets one of its own size.
 *
 * <p>The outcome is the one-by-one read's, error for error: the records before the first damage,
 * then that damage. Frame damage met while scanning is held until the records before it are
 * decoded, since an undecodable record before the damage is the earlier error and wins. Not
 * thread-safe; one per read. Blocks on I/O and on decoding.
 */
final class BatchRead {

    /**
     * Payload bytes decoded per batch: ~900 journal records of 1.2 KB, enough that the caller's
     * wait for the last chunk a helper took is a few per cent of the batch.
     */
    static final int ARENA = 1 << 20;

    private final Cursor cursor;
    private final int max;
    private final boolean partial;
    private final List<RawRecord> pending = new ArrayList<>();
    /** The segment of each pending record, to name it when it does not decode. */
    private final List<Segment> segments = new ArrayList<>();
    /** The arena of {@link #ARENA} bytes this read uses, and hands back when done. */
    private final byte[] standard;
    private byte[] arena;
    private int used;

    /**
     * @param spare   an arena of {@link #ARENA} bytes a previous read handed back, or null
     * @param partial as in {@link JournalReader#readUpToDamage}: stop before damage and return
     *                what came before it, when there is anything
     */
    BatchRead(Cursor cursor, int max, boolean partial, byte[] spare) {
        this.cursor = cursor;
        this.max = max;
        this.partial = partial;
        this.standard = spare != null && spare.length == ARENA ? spare : new byte[ARENA];
        this.arena = standard;
    }

    /** The arena for the next read; its bytes are garbage once {@link #into} returned or threw. */
    byte[] arena() {
        return standard;
    }

    /**
     * Reads up to {@code max} records into {@code out}. Returns true when the read ended
     * normally (max reached or the view's end), false when a partial read stopped before damage.
     *
     * @throws EventLogException the first damage (frame or undecodable record), unless this is a
     *         partial read that has records to return
     */
    boolean into(List<Envelope> out) {
        EventLogException stoppedBy = null;
        while (out.size() + pending.size() < max) {
            try {
                if (!cursor.next()) {
                    break;
                }
            } catch (EventLogException e) {
                stoppedBy = e; // frame damage or I/O: after the records already taken, which go first
                break;
            }
            int len = cursor.payloadLength();
            if (len > arena.length - used && !makeRoom(len, out)) {
                return false;
            }
            System.arraycopy(cursor.array(), cursor.payloadOffset(), arena, used, len);
            pending.add(new RawRecord(cursor.offset(), arena, used, len));
            segments.add(cursor.segment());
            used += len;
        }
        if (!decodePending(out)) {
            return false;
        }
        if (stoppedBy != null) {
            if (partial && !out.isEmpty()) {
                return false;
            }
            throw stoppedBy;
        }
        return true;
    }

    /** Decodes what is pending to empty the arena; false when a partial read must stop. */
    private boolean makeRoom(int len, List<Envelope> out) {
        if (!decodePending(out)) {
            return false;
        }
        if (len > arena.length) {
            arena = new byte[len]; // a record larger than the arena
        } else if (len <= standard.length) {
            arena = standard;
        }
        return true;
    }

    private boolean decodePending(List<Envelope> out) {
        if (pending.isEmpty()) {
            return true;
        }
        try {
            out.addAll(ReplayDecoder.decode(pending));
        } catch (BatchDecodeException e) {
            out.addAll(e.decodedBefore());
            if (partial && !out.isEmpty()) {
                return false;
            }
            throw JournalReader.undecodable(segments.get(e.index()), e.offset(), e.getCause());
        }
        pending.clear();
        segments.clear();
        used = 0;
        return true;
    }
}
