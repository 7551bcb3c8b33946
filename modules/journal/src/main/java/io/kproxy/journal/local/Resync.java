package io.kproxy.journal.local;

import io.kproxy.events.EventCodec;
import io.kproxy.events.EventDecodeException;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Tells a torn tail from corruption: after the first bad frame of a segment, is there any sound
 * frame further on? A write interrupted by a crash leaves an incomplete last frame, or zeros or
 * garbage to the end of the file, never a sound frame after the damage. A sound frame after it
 * means acknowledged records follow the damage: a flipped bit, a bad sector, a stray write. "Sound"
 * is strict: a plausible length, a CRC32C over length and payload that matches (a chance of 2^-32
 * for garbage), and a payload that starts like a record of this format.
 *
 * <p>Also bounds how many records damaged bytes can have held, since a record does not carry its
 * offset (see {@code EventCodec}): no frame is shorter than {@link #MIN_FRAME} bytes. Stateless;
 * blocks on I/O.
 */
final class Resync {

    /**
     * The shortest frame: 8 bytes of frame header and a payload of at least version, type, seconds,
     * nanos and the source's length, one byte each ({@code EventCodec}'s format version 1).
     */
    static final int MIN_FRAME = RecordFrame.HEADER + 5;

    /** Bytes of a tail examined at most; a longer damaged remainder is taken as corruption (never cut). */
    static final long MAX_EXAMINED = 64L << 20;

    private Resync() {
    }

    /** The most records {@code bytes} damaged bytes can have held (at least one). */
    static long maxRecords(long bytes) {
        return Math.max(1, bytes / MIN_FRAME);
    }

    /**
     * The position of the first sound frame in {@code (from, size)} of {@code segment}, or -1 when
     * there is none (a torn tail). Positions after a remainder larger than {@link #MAX_EXAMINED}
     * are not examined: such a remainder counts as holding one (returns {@code from}).
     */
    static long nextSoundFrame(Segment segment, long from, long size) throws IOException {
        long n = size - from;
        if (n > MAX_EXAMINED) {
            return from;
        }
        byte[] b = new byte[(int) n];
        ByteBuffer dst = ByteBuffer.wrap(b);
        while (dst.hasRemaining()) {
            if (segment.read(dst, from + dst.position()) < 0) {
                break;
            }
        }
        int end = dst.position();
        for (int p = 1; p + RecordFrame.HEADER < end; p++) {
            int len = getInt(b, p);
            if (len <= 0 || len > RecordFrame.MAX_PAYLOAD || (long) p + RecordFrame.HEADER + len > end) {
                continue;
            }
            if (RecordFrame.checksum(b, p + RecordFrame.HEADER, len) == getInt(b, p + 4) && looksLikeRecord(b, p + RecordFrame.HEADER, len)) {
                return from + p;
            }
        }
        return -1;
    }

    private static boolean looksLikeRecord(byte[] b, int off, int len) {
        try {
            EventCodec.peekRecordedAt(b, off, len);
            return true;
        } catch (EventDecodeException e) {
            return false;
        }
    }

    private static int getInt(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | b[i + 3] & 0xFF;
    }
}
