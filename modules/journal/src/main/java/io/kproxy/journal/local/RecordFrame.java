package io.kproxy.journal.local;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The frame of one record in a segment: {@code [length u32][crc32c u32][payload]}, big-endian.
 * The checksum covers the four length bytes and the payload, so a damaged length is caught as
 * surely as a damaged payload. A length of zero never occurs (a payload is at least the codec's
 * header), which makes a zero-filled tail (what ext4 leaves after a crash that extended the
 * file but lost its data) read as damage, not as empty records. Stateless.
 */
public final class RecordFrame {

    /** Bytes before the payload. */
    public static final int HEADER = 8;

    /** The largest payload we write or accept; larger lengths are damage, not allocations. */
    public static final int MAX_PAYLOAD = 16 << 20;

    private RecordFrame() {
    }

    /** The checksum of a frame whose payload is {@code payload[off, off+len)}. */
    public static int checksum(byte[] payload, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(len >>> 24);
        crc.update(len >>> 16);
        crc.update(len >>> 8);
        crc.update(len);
        crc.update(payload, off, len);
        return (int) crc.getValue();
    }

    /** Puts the frame of {@code payload} into {@code out}, which must have room for it. */
    public static void put(ByteBuffer out, byte[] payload) {
        out.putInt(payload.length);
        out.putInt(checksum(payload, 0, payload.length));
        out.put(payload);
    }

    /** Bytes one frame of a payload of {@code length} bytes takes. */
    public static int size(int length) {
        return HEADER + length;
    }
}
