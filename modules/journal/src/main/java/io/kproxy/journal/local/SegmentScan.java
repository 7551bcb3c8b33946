package io.kproxy.journal.local;

import io.kproxy.events.EventCodec;
import io.kproxy.events.EventDecodeException;
import java.io.IOException;
import java.time.Instant;

/**
 * The result of walking a whole segment (or its tail) frame by frame, filling its sparse index:
 * where the sound records end, and why the walk stopped. Used by recovery, by index rebuilds and
 * by verification. Immutable.
 *
 * @param lastOffset     offset of the last sound record ({@code base - 1} when none)
 * @param lastTime       its time ({@link Instant#EPOCH} when none)
 * @param validEnd       byte position just after the last sound record
 * @param stop           why the walk stopped ({@link FrameScanner.Stop#END} when it reached the limit cleanly)
 * @param undecodable    whether it stopped at a sound frame whose record header cannot be decoded
 * @param detail         a sentence about the stop
 * @param backwardsAt    the first offset whose time precedes its predecessor's, or -1
 */
public record SegmentScan(long lastOffset, Instant lastTime, long validEnd, FrameScanner.Stop stop, boolean undecodable, String detail,
                          long backwardsAt) {

    public boolean clean() {
        return stop == FrameScanner.Stop.END && !undecodable;
    }

    /** Walks {@code segment} from its first record to {@code limit}, adding index entries every {@code interval} bytes. */
    static SegmentScan run(Segment segment, long limit, int interval, Instant previousTime) throws IOException {
        FrameScanner s = new FrameScanner(segment, SegmentFiles.HEADER, limit);
        SparseIndex index = segment.index();
        long offset = segment.base();
        Instant last = Instant.EPOCH;
        Instant prev = previousTime;
        long backwards = -1;
        while (s.next()) {
            Instant t;
            try {
                t = EventCodec.peekRecordedAt(s.array(), s.payloadOffset(), s.payloadLength());
            } catch (EventDecodeException e) {
                return new SegmentScan(offset - 1, last, s.framePosition(), FrameScanner.Stop.END, true,
                        "sound frame whose record cannot be decoded: " + e.getMessage(), backwards);
            }
            if (t.isBefore(prev) && backwards < 0) {
                backwards = offset;
            }
            index.maybeAdd(offset, s.framePosition(), t, interval);
            prev = t;
            last = t;
            offset++;
        }
        long end = s.stop() == FrameScanner.Stop.END ? limit : s.framePosition();
        return new SegmentScan(offset - 1, last, end, s.stop(), false, s.detail(), backwards);
    }
}
