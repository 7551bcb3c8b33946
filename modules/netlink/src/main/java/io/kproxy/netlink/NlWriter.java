package io.kproxy.netlink;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable buffer that writes netlink messages and attributes (rtnetlink framing: 4-byte
 * aligned {@code nlmsghdr} and {@code nlattr}, host byte order for the headers). nf_tables puts
 * its own 32- and 64-bit attribute values in network byte order ({@link #u32Be}), registers and
 * user data aside. Not thread-safe.
 */
final class NlWriter {

    static final int NLA_F_NESTED = 0x8000;

    private byte[] buf;
    private int pos;

    NlWriter(int capacity) {
        buf = new byte[Math.max(64, capacity)];
    }

    int position() {
        return pos;
    }

    byte[] array() {
        return buf;
    }

    /** Forgets everything written after {@code position}. */
    void truncate(int position) {
        pos = position;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void ensure(int more) {
        if (pos + more > buf.length) {
            // By half again, not double: a full sync's batch is tens of megabytes, and the old
            // and new arrays are alive at once while it grows.
            buf = Arrays.copyOf(buf, Math.max(buf.length + (buf.length >> 1), pos + more));
        }
    }

    private void align() {
        int pad = (4 - (pos & 3)) & 3;
        ensure(pad);
        for (int i = 0; i < pad; i++) {
            buf[pos++] = 0;
        }
    }

    void putU16Host(int v) {
        ensure(2);
        buf[pos++] = (byte) v;
        buf[pos++] = (byte) (v >>> 8);
    }

    void putU32Host(int v) {
        ensure(4);
        buf[pos++] = (byte) v;
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 24);
    }

    void setU32Host(int at, int v) {
        buf[at] = (byte) v;
        buf[at + 1] = (byte) (v >>> 8);
        buf[at + 2] = (byte) (v >>> 16);
        buf[at + 3] = (byte) (v >>> 24);
    }

    private void setU16Host(int at, int v) {
        buf[at] = (byte) v;
        buf[at + 1] = (byte) (v >>> 8);
    }

    void putBytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
    }

    /**
     * Starts a message: {@code nlmsghdr} and nfnetlink's {@code nfgenmsg} (family, version 0,
     * resource id in network order). Returns the start, for {@link #endMessage}.
     */
    int beginMessage(int type, int flags, int seq, int family, int resId) {
        align();
        int start = pos;
        putU32Host(0); // length, patched
        putU16Host(type);
        putU16Host(flags);
        putU32Host(seq);
        putU32Host(0); // port id: the kernel
        ensure(4);
        buf[pos++] = (byte) family;
        buf[pos++] = 0; // NFNETLINK_V0
        buf[pos++] = (byte) (resId >>> 8);
        buf[pos++] = (byte) resId;
        return start;
    }

    void endMessage(int start) {
        align();
        setU32Host(start, pos - start);
    }

    void attr(int type, byte[] value) {
        align();
        ensure(4 + value.length);
        putU16Host(4 + value.length);
        putU16Host(type);
        putBytes(value);
        align();
    }

    /** A NUL-terminated string attribute. */
    void string(int type, String value) {
        byte[] s = value.getBytes(StandardCharsets.UTF_8);
        byte[] z = Arrays.copyOf(s, s.length + 1);
        attr(type, z);
    }

    void u32Be(int type, int value) {
        attr(type, new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }

    void u64Be(int type, long value) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (value >>> (56 - 8 * i));
        }
        attr(type, b);
    }

    void u8(int type, int value) {
        attr(type, new byte[] {(byte) value});
    }

    /** Starts a nested attribute; returns its start for {@link #endNest}. */
    int beginNest(int type) {
        align();
        int start = pos;
        putU16Host(0);
        putU16Host(type | NLA_F_NESTED);
        return start;
    }

    void endNest(int start) {
        setU16Host(start, pos - start);
        align();
    }
}
