package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Walks the frames of one segment from a byte position up to a limit, checking every length and
 * checksum. {@link #next()} either lands on a sound frame or stops and says why: the clean end,
 * or the first damage ({@link Stop}). It never skips damage. Not thread-safe; one per reader.
 */
public final class FrameScanner {

    /** Why scanning stopped. */
    public enum Stop {
        /** The limit was reached exactly at a frame boundary. */
        END,
        /** Fewer bytes remain than the frame header or its declared payload needs. */
        TRUNCATED,
        /** The length field is zero, negative or larger than {@link RecordFrame#MAX_PAYLOAD}. */
        BAD_LENGTH,
        /** The checksum does not match the bytes. */
        CRC_MISMATCH
    }

    private static final int READ_SIZE = 64 << 10;

    private final Segment segment;
    private final long limit;
    private byte[] buf = new byte[READ_SIZE];
    private long bufStart;
    private int bufLen;
    private long pos;
    private long framePos;
    private int payloadOff;
    private int payloadLen;
    private Stop stop;
    private String detail = "";

    FrameScanner(Segment segment, long start, long limit) {
        this.segment = segment;
        this.pos = start;
        this.limit = limit;
        this.bufStart = start;
    }

    /** Moves to the next frame; false when scanning stopped ({@link #stop()} says why). */
    public boolean next() throws IOException {
        if (stop != null) {
            return false;
        }
        if (pos == limit) {
            return halt(Stop.END, "");
        }
        if (limit - pos < RecordFrame.HEADER || !ensure(pos, RecordFrame.HEADER)) {
            return halt(Stop.TRUNCATED, "only " + available(pos) + " bytes where a frame header needs " + RecordFrame.HEADER);
        }
        int i = (int) (pos - bufStart);
        int len = getInt(i);
        int crc = getInt(i + 4);
        if (len <= 0 || len > RecordFrame.MAX_PAYLOAD) {
            return halt(Stop.BAD_LENGTH, "frame length " + Integer.toUnsignedString(len) + " is impossible");
        }
        if (limit - pos - RecordFrame.HEADER < len || !ensure(pos, RecordFrame.HEADER + len)) {
            return halt(Stop.TRUNCATED, "frame of " + len + " bytes runs past the end (" + available(pos) + " bytes left)");
        }
        i = (int) (pos - bufStart);
        if (RecordFrame.checksum(buf, i + RecordFrame.HEADER, len) != crc) {
            return halt(Stop.CRC_MISMATCH, "checksum mismatch in a frame of " + len + " bytes");
        }
        framePos = pos;
        payloadOff = i + RecordFrame.HEADER;
        payloadLen = len;
        pos += RecordFrame.HEADER + len;
        return true;
    }

    private boolean halt(Stop s, String d) {
        stop = s;
        detail = d;
        framePos = pos;
        return false;
    }

    private long available(long at) {
        return Math.max(0, Math.min(limit, bufStart + bufLen) - at);
    }

    /** Makes {@code [at, at+n)} present in the buffer; false when the file ends first. */
    private boolean ensure(long at, int n) throws IOException {
        if (at >= bufStart && at + n <= bufStart + bufLen) {
            return true;
        }
        byte[] target = buf.length < n ? new byte[Math.max(n, buf.length * 2)] : buf;
        int keep = 0;
        if (at >= bufStart && at < bufStart + bufLen) {
            keep = (int) (bufStart + bufLen - at);
            System.arraycopy(buf, (int) (at - bufStart), target, 0, keep);
        }
        buf = target;
        bufStart = at;
        bufLen = keep;
        int want = (int) Math.min(buf.length, limit - at);
        ByteBuffer dst = ByteBuffer.wrap(buf, bufLen, want - bufLen);
        while (bufLen < n) {
            int r = segment.read(dst, at + bufLen);
            if (r < 0) {
                return false;
            }
            bufLen += r;
        }
        return true;
    }

    private int getInt(int i) {
        return (buf[i] & 0xFF) << 24 | (buf[i + 1] & 0xFF) << 16 | (buf[i + 2] & 0xFF) << 8 | buf[i + 3] & 0xFF;
    }

    /** The array holding the current payload. Valid until the next call to {@link #next()}. */
    public byte[] array() {
        return buf;
    }

    public int payloadOffset() {
        return payloadOff;
    }

    public int payloadLength() {
        return payloadLen;
    }

    /** Byte position of the current frame, or of the damage once stopped. */
    public long framePosition() {
        return framePos;
    }

    /** Byte position just after the current frame (where the next one starts). */
    public long position() {
        return pos;
    }

    /** Why scanning stopped, or null while it goes on. */
    public Stop stop() {
        return stop;
    }

    /** A human sentence about the stop, empty at a clean end. */
    public String detail() {
        return detail;
    }

    public Segment segment() {
        return segment;
    }
}
