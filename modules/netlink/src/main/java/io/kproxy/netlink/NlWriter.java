package io.kproxy.netlink;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable buffer that writes netlink messages and attributes (rtnetlink framing: 4-byte
 * aligned {@code nlmsghdr} and {@code nlattr}, host byte order for the headers). nf_tables puts
 * its own 32- and 64-bit attribute values in network byte order ({@link #u32Be}), registers and
 * user data aside.
 *
 * <p>The bytes live in native memory ({@link Arena#ofAuto()}, freed once unreachable), which is
 * where {@code sendto} needs them: a full sync's batch (21 MB at 10,000 Services) is then never
 * on the Java heap, and is not copied again to be sent. Not thread-safe; a finished buffer may be
 * read from another thread once handed over.
 */
final class NlWriter {

    static final int NLA_F_NESTED = 0x8000;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.nativeOrder());
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.nativeOrder());

    private MemorySegment buf;
    private long pos;

    NlWriter(int capacity) {
        buf = Arena.ofAuto().allocate(Math.max(64, capacity));
    }

    /**
     * A writer into {@code into} (a part of another writer's buffer: {@link #splitOff}), from its
     * start; when it is full, it goes on in a buffer of its own, as any writer grows.
     */
    private NlWriter(MemorySegment into) {
        buf = into;
    }

    /**
     * Gives the part of this writer's buffer past {@code keep} bytes (rounded up to 4) to a new
     * writer, and keeps the rest: two writers that fill one buffer on two threads, joined again by
     * {@link #append}. Returns the new writer; this one grows into a new buffer if it outgrows {@code keep}.
     */
    NlWriter splitOff(int keep) {
        long at = Math.min(buf.byteSize(), Math.max(pos, (keep + 3L) & ~3L));
        NlWriter tail = new NlWriter(buf.asSlice(at));
        buf = buf.asSlice(0, at);
        return tail;
    }

    /**
     * Appends what {@code tail} wrote, aligned as the next message would be, and returns where it
     * starts. When this writer still writes into the start of {@code whole}, the buffer both were
     * split from, it widens to all of it again, and the tail's bytes, if they are still in it, move
     * down in place: no buffer is allocated.
     */
    int append(NlWriter tail, MemorySegment whole) {
        align();
        if (buf.address() == whole.address() && buf.byteSize() < whole.byteSize()) {
            buf = whole;
        }
        int at = position();
        ensure(tail.position());
        // Overlapping when the tail is in the same buffer: MemorySegment.copy moves as memmove does.
        MemorySegment.copy(tail.buf, 0, buf, pos, tail.pos);
        pos += tail.pos;
        return at;
    }

    int position() {
        return Math.toIntExact(pos);
    }

    /** The buffer; its first {@link #position()} bytes are what was written. */
    MemorySegment segment() {
        return buf;
    }

    /** A copy of what was written. */
    byte[] bytes() {
        return buf.asSlice(0, pos).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Forgets everything written after {@code position}. */
    void truncate(int position) {
        pos = position;
    }

    private void ensure(int more) {
        if (pos + more > buf.byteSize()) {
            // By half again, not double: a full sync's batch is tens of megabytes.
            long size = Math.max(buf.byteSize() + (buf.byteSize() >> 1), pos + more);
            MemorySegment next = Arena.ofAuto().allocate(size);
            MemorySegment.copy(buf, 0, next, 0, pos);
            buf = next;
        }
    }

    private void align() {
        int pad = (int) ((4 - (pos & 3)) & 3);
        ensure(pad);
        for (int i = 0; i < pad; i++) {
            buf.set(ValueLayout.JAVA_BYTE, pos++, (byte) 0);
        }
    }

    private void put(byte b) {
        buf.set(ValueLayout.JAVA_BYTE, pos++, b);
    }

    void putU16Host(int v) {
        ensure(2);
        buf.set(U16, pos, (short) v);
        pos += 2;
    }

    void putU32Host(int v) {
        ensure(4);
        buf.set(U32, pos, v);
        pos += 4;
    }

    void setU32Host(int at, int v) {
        buf.set(U32, at, v);
    }

    /** The host-order 16-bit value at {@code at}. */
    int getU16Host(int at) {
        return buf.get(U16, at) & 0xffff;
    }

    void setU16Host(int at, int v) {
        buf.set(U16, at, (short) v);
    }

    void putBytes(byte[] b) {
        ensure(b.length);
        MemorySegment.copy(b, 0, buf, ValueLayout.JAVA_BYTE, pos, b.length);
        pos += b.length;
    }

    /**
     * Starts a message: {@code nlmsghdr} and nfnetlink's {@code nfgenmsg} (family, version 0,
     * resource id in network order). Returns the start, for {@link #endMessage}.
     */
    int beginMessage(int type, int flags, int seq, int family, int resId) {
        int start = beginHeader(type, flags, seq);
        ensure(4);
        put((byte) family);
        put((byte) 0); // NFNETLINK_V0
        put((byte) (resId >>> 8));
        put((byte) resId);
        return start;
    }

    /**
     * Starts a message with its {@code nlmsghdr} only (length patched by {@link #endMessage}); the
     * caller writes the family's own header (generic netlink's {@code genlmsghdr}, rtnetlink's
     * {@code ifinfomsg}, …) with {@link #putBytes}. Returns the start.
     */
    int beginHeader(int type, int flags, int seq) {
        align();
        long start = pos;
        putU32Host(0); // length, patched
        putU16Host(type);
        putU16Host(flags);
        putU32Host(seq);
        putU32Host(0); // port id: the kernel
        return Math.toIntExact(start);
    }

    void endMessage(int start) {
        align();
        setU32Host(start, Math.toIntExact(pos - start));
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

    /** A 16-bit attribute in host byte order (generic netlink's and rtnetlink's own integers). */
    void u16Host(int type, int value) {
        align();
        ensure(6);
        putU16Host(6);
        putU16Host(type);
        putU16Host(value);
        align();
    }

    /** A 32-bit attribute in host byte order. */
    void u32Host(int type, int value) {
        align();
        ensure(8);
        putU16Host(8);
        putU16Host(type);
        putU32Host(value);
        align();
    }

    /** A 16-bit attribute in network byte order (ports). */
    void u16Be(int type, int value) {
        attr(type, new byte[] {(byte) (value >>> 8), (byte) value});
    }

    void u8(int type, int value) {
        attr(type, new byte[] {(byte) value});
    }

    /** Starts a nested attribute; returns its start for {@link #endNest}. */
    int beginNest(int type) {
        align();
        int start = position();
        putU16Host(0);
        putU16Host(type | NLA_F_NESTED);
        return start;
    }

    void endNest(int start) {
        setU16Host(start, Math.toIntExact(pos - start));
        align();
    }
}
