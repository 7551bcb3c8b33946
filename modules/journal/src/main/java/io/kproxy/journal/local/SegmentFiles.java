package io.kproxy.journal.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * Names and headers of journal files, and the file-system calls that make them durable and
 * private. A segment is named after the offset of its first record ({@code %020d.seg}), so the
 * directory listing alone orders segments and tells which one holds an offset. Stateless.
 */
public final class SegmentFiles {

    /** Segment header: magic, version, reserved, base offset, CRC32C of the preceding 16 bytes. */
    public static final int HEADER = 20;
    static final int MAGIC = 0x4B504A53; // "KPJS"
    static final short VERSION = 1;

    public static final String SEGMENT_SUFFIX = ".seg";
    public static final String INDEX_SUFFIX = ".idx";
    public static final String LOCK_FILE = "journal.lock";
    public static final String SNAPSHOTS = "snapshots";
    public static final String QUARANTINE = "quarantine";
    static final Pattern SEGMENT_NAME = Pattern.compile("\\d{20}\\.seg");

    static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> PRIVATE_DIR = PosixFilePermissions.fromString("rwx------");

    private SegmentFiles() {
    }

    public static String segmentName(long base) {
        return String.format("%020d%s", base, SEGMENT_SUFFIX);
    }

    static String indexName(long base) {
        return String.format("%020d%s", base, INDEX_SUFFIX);
    }

    /** The base offset in a segment file name, or -1 when the name is not a segment's. */
    static long baseOf(String fileName) {
        if (!SEGMENT_NAME.matcher(fileName).matches()) {
            return -1;
        }
        return Long.parseLong(fileName.substring(0, 20));
    }

    static ByteBuffer header(long base) {
        ByteBuffer b = ByteBuffer.allocate(HEADER);
        b.putInt(MAGIC).putShort(VERSION).putShort((short) 0).putLong(base);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 16);
        b.putInt((int) crc.getValue());
        return b.flip();
    }

    /** Why {@code h} (the first {@link #HEADER} bytes of a file) is not the header of segment {@code base}, or null. */
    static String headerProblem(ByteBuffer h, long base) {
        if (h.remaining() < HEADER) {
            return "header is " + h.remaining() + " bytes, expected " + HEADER;
        }
        ByteBuffer expected = header(base);
        if (!expected.equals(h.slice(h.position(), HEADER))) {
            ByteBuffer d = h.duplicate();
            if (d.getInt() != MAGIC) {
                return "not a journal segment (bad magic)";
            }
            short v = d.getShort();
            if (v != VERSION) {
                return "segment format version " + v + " (this build reads " + VERSION + ")";
            }
            return "header damaged or names another base offset";
        }
        return null;
    }

    /**
     * Why {@code p} is not a regular file of its own (a FIFO, device, directory or symbolic link
     * in place of a journal file), or null when it is one. Only regular files are ever opened: a
     * FIFO blocks the opener until someone writes to it, a device like {@code /dev/zero} never
     * ends, and a link may lead out of the private directory.
     *
     * @throws NoSuchFileException when there is nothing at {@code p}
     */
    public static String notRegular(Path p) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isRegularFile()) {
            return null;
        }
        String what = a.isSymbolicLink() ? "a symbolic link" : a.isDirectory() ? "a directory" : a.isOther() ? "a FIFO, socket or device"
                : "not a file";
        return "is " + what + ", not a regular file; it is never opened";
    }

    /**
     * The whole content of the small journal file {@code p} (an index, a snapshot, the ledger),
     * read only when it is a regular file of at most {@code maxBytes}.
     *
     * @throws NoSuchFileException when there is nothing at {@code p}
     * @throws IOException         when it is not a regular file, is larger, or cannot be read
     */
    static byte[] readRegular(Path p, long maxBytes) throws IOException {
        String bad = notRegular(p);
        if (bad != null) {
            throw new IOException(p.getFileName() + " " + bad);
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            if (size > maxBytes) {
                throw new IOException(p.getFileName() + " is " + size + " bytes, more than the " + maxBytes + " it may have");
            }
            ByteBuffer b = ByteBuffer.allocate((int) size);
            while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
                // a short read is not the end of the file
            }
            if (b.hasRemaining()) {
                throw new IOException(p.getFileName() + " shrank while it was read");
            }
            return b.array();
        }
    }

    static FileAttribute<Set<PosixFilePermission>> privateFile() {
        return PosixFilePermissions.asFileAttribute(PRIVATE_FILE);
    }

    /** Creates {@code dir} (and parents) private to the owner, or tightens an existing one. */
    public static boolean ensurePrivateDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
        }
        Set<PosixFilePermission> now = Files.getPosixFilePermissions(dir);
        if (!now.equals(PRIVATE_DIR)) {
            Files.setPosixFilePermissions(dir, PRIVATE_DIR);
            return true;
        }
        return false;
    }

    /** Makes the names in {@code dir} durable (creations, renames, deletions). */
    public static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** Writes all of {@code b} at {@code position}. */
    static void writeFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }

    /** Whether {@code e} (or a cause) is ENOSPC or a quota error: the retryable "disk full". */
    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage(); // FileSystemException's message carries its reason
            if (m != null && (m.contains("No space left on device") || m.contains("Disk quota exceeded"))) {
                return true;
            }
        }
        return false;
    }
}
