package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * The index file of a sealed segment ({@code %020d.idx}): written once when the segment is
 * sealed, with the segment's size, last offset and last time in its header and a CRC32C over the
 * whole file. It is derived data: when it is missing, damaged or does not describe the segment
 * beside it, the segment is scanned and the index rebuilt. Stateless.
 *
 * <p>Layout: magic "KPJI" u32, version u16, reserved u16, base u64, segment bytes u64, last
 * offset u64, last time (seconds i64, nanos u32), entry count u32; entries of (offset u64,
 * position u64, seconds i64, nanos u32); CRC32C u32 of everything before it.
 */
final class IndexFile {

    static final int MAGIC = 0x4B504A49; // "KPJI"
    static final short VERSION = 1;
    static final int HEADER = 48;
    static final int ENTRY = 28;

    /** A loaded index and the facts its header records about the segment. */
    record Loaded(SparseIndex index, long lastOffset, Instant lastTime) {
    }

    private IndexFile() {
    }

    static void store(Path file, long base, SparseIndex index, long segmentBytes, long lastOffset, Instant lastTime) throws IOException {
        int n = index.size();
        ByteBuffer b = ByteBuffer.allocate(HEADER + n * ENTRY + 4);
        b.putInt(MAGIC).putShort(VERSION).putShort((short) 0).putLong(base).putLong(segmentBytes).putLong(lastOffset)
                .putLong(lastTime.getEpochSecond()).putInt(lastTime.getNano()).putInt(n);
        for (int i = 0; i < n; i++) {
            Instant t = index.time(i);
            b.putLong(index.offset(i)).putLong(index.position(i)).putLong(t.getEpochSecond()).putInt(t.getNano());
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue()).flip();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (FileChannel ch = FileChannel.open(tmp, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE), SegmentFiles.privateFile())) {
                SegmentFiles.writeFully(ch, b, 0);
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Loads {@code file} if it is a sound index of segment {@code base} of {@code segmentBytes}
     * bytes; otherwise returns null and puts the reason in {@code why[0]}.
     */
    static Loaded load(Path file, long base, long segmentBytes, String[] why) throws IOException {
        byte[] all;
        try {
            // an index holds at most one entry per frame; anything larger is not one
            all = SegmentFiles.readRegular(file, HEADER + 4 + (segmentBytes / RecordFrame.HEADER + 1) * ENTRY);
        } catch (NoSuchFileException e) {
            why[0] = "missing";
            return null;
        } catch (IOException e) {
            why[0] = e.getMessage();
            return null;
        }
        if (all.length < HEADER + ENTRY + 4 || (all.length - HEADER - 4) % ENTRY != 0) {
            return fail(why, "size " + all.length + " is not a whole index");
        }
        CRC32C crc = new CRC32C();
        crc.update(all, 0, all.length - 4);
        ByteBuffer b = ByteBuffer.wrap(all);
        if (b.getInt(all.length - 4) != (int) crc.getValue()) {
            return fail(why, "checksum mismatch");
        }
        if (b.getInt() != MAGIC || b.getShort() != VERSION) {
            return fail(why, "not an index of this format");
        }
        b.getShort();
        long fileBase = b.getLong();
        long size = b.getLong();
        long lastOffset = b.getLong();
        Instant lastTime = Instant.ofEpochSecond(b.getLong(), b.getInt());
        int n = b.getInt();
        if (fileBase != base || size != segmentBytes) {
            return fail(why, "describes base " + fileBase + " of " + size + " bytes, the segment is base " + base + " of " + segmentBytes + " bytes");
        }
        if (n != (all.length - HEADER - 4) / ENTRY) {
            return fail(why, "entry count " + n + " does not match the file size");
        }
        SparseIndex index = new SparseIndex();
        long prevPos = -1;
        Instant prevTime = Instant.MIN;
        for (int i = 0; i < n; i++) {
            long o = b.getLong();
            long p = b.getLong();
            Instant t = Instant.ofEpochSecond(b.getLong(), b.getInt());
            boolean first = i == 0;
            if (first && (o != base || p != SegmentFiles.HEADER) || p <= prevPos || p >= segmentBytes || t.isBefore(prevTime)
                    || o > lastOffset || (i > 0 && o <= index.offset(i - 1))) {
                return fail(why, "entry " + i + " is out of order or out of the segment");
            }
            index.add(o, p, t);
            prevPos = p;
            prevTime = t;
        }
        if (lastTime.isBefore(prevTime)) {
            return fail(why, "last time precedes an entry");
        }
        return new Loaded(index, lastOffset, lastTime);
    }

    private static Loaded fail(String[] why, String reason) {
        why[0] = reason;
        return null;
    }
}
