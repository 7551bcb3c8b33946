package io.kproxy.journal.local;

import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import io.kproxy.journal.spi.Snapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongPredicate;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot files under {@code snapshots/}, one per covered offset ({@code %020d.snap}). A snapshot
 * is written to a temporary name, forced, renamed into place and the directory forced, so a crash
 * leaves either the whole snapshot or none. A snapshot that fails its checksum is skipped (with a
 * warning) in favour of an older one: snapshots are derived from the log, which stays the truth.
 *
 * <p>Layout: magic "KPSN" u32, version u16, reserved u16, offset u64, length u64, CRC32C u32 of
 * the data, data. Thread-safe; every method blocks on I/O.
 */
public final class SnapshotStore {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStore.class);
    private static final int MAGIC = 0x4B50534E; // "KPSN"
    private static final short VERSION = 1;
    private static final int HEADER = 28;
    private static final Pattern NAME = Pattern.compile("\\d{20}\\.snap");

    private final Path dir;
    private final boolean readOnly;
    /** Known snapshot offsets; the value says whether the file was checked (or written) sound in this process. */
    private final ConcurrentSkipListMap<Long, Boolean> offsets = new ConcurrentSkipListMap<>();
    /** Which snapshots may be used (see {@link SnapshotGuard}); every one until recovery says. */
    private volatile LongPredicate usable = s -> true;

    SnapshotStore(Path dir, boolean readOnly) throws IOException {
        this.dir = dir;
        this.readOnly = readOnly;
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
                for (Path p : ds) {
                    String n = p.getFileName().toString();
                    if (NAME.matcher(n).matches()) {
                        offsets.put(Long.parseLong(n.substring(0, 20)), Boolean.FALSE);
                    } else if (n.endsWith(".tmp") && !readOnly) {
                        Files.deleteIfExists(p); // an interrupted store: never renamed, never visible
                    }
                }
            }
        }
    }

    static String name(long offset) {
        return String.format("%020d.snap", offset);
    }

    /** Stores {@code data} as the snapshot covering up to {@code offset}, replacing one at the same offset. */
    public void store(long offset, byte[] data) {
        if (readOnly) {
            throw new EventLogException(Kind.READ_ONLY, "journal opened read-only: cannot store a snapshot");
        }
        Path file = dir.resolve(name(offset));
        Path tmp = dir.resolve(name(offset) + ".tmp");
        try {
            SegmentFiles.ensurePrivateDir(dir);
            CRC32C crc = new CRC32C();
            crc.update(data);
            ByteBuffer head = ByteBuffer.allocate(HEADER).putInt(MAGIC).putShort(VERSION).putShort((short) 0).putLong(offset)
                    .putLong(data.length).putInt((int) crc.getValue()).flip();
            try (FileChannel ch = FileChannel.open(tmp, Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE), SegmentFiles.privateFile())) {
                SegmentFiles.writeFully(ch, head, 0);
                SegmentFiles.writeFully(ch, ByteBuffer.wrap(data), HEADER);
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            SegmentFiles.fsyncDirectory(dir);
            offsets.put(offset, Boolean.TRUE);
            LOG.info("journal.snapshot stored offset={} bytes={} file={}", offset, data.length, file);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            Kind kind = SegmentFiles.isNoSpace(e) ? Kind.FULL : Kind.UNAVAILABLE;
            throw new EventLogException(kind, "storing the snapshot at offset " + offset + " in " + dir + " failed: " + e, e);
        }
    }

    /** Limits {@link #atOrBefore} and {@link #newestSoundOffset} to snapshots {@code usable} accepts. */
    void restrict(LongPredicate usable) {
        this.usable = usable;
    }

    /** Moves the snapshot at {@code offset} to {@code quarantineDir}; it is never used again. */
    void quarantine(long offset, Path quarantineDir) throws IOException {
        SegmentFiles.ensurePrivateDir(quarantineDir);
        Path saved = Quarantine.unique(quarantineDir, name(offset));
        Files.move(dir.resolve(name(offset)), saved, StandardCopyOption.ATOMIC_MOVE);
        SegmentFiles.fsyncDirectory(dir);
        offsets.remove(offset);
        LOG.warn("journal.snapshot quarantined offset={} savedTo={}", offset, saved);
    }

    /** The newest sound and usable snapshot covering at most {@code offset}. */
    public Optional<Snapshot> atOrBefore(long offset) {
        for (Map.Entry<Long, Boolean> e = offsets.floorEntry(offset); e != null; e = offsets.lowerEntry(e.getKey())) {
            if (!usable.test(e.getKey())) {
                continue;
            }
            Snapshot s = load(e.getKey());
            if (s != null) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The offset of the newest sound and usable snapshot, or -1; checks files not yet checked in this process. */
    public long newestSoundOffset() {
        for (Map.Entry<Long, Boolean> e = offsets.lastEntry(); e != null; e = offsets.lowerEntry(e.getKey())) {
            if (usable.test(e.getKey()) && (e.getValue() || load(e.getKey()) != null)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** Every snapshot offset present, oldest first. */
    public List<Long> offsets() {
        return new ArrayList<>(offsets.keySet());
    }

    /** Why the snapshot at {@code offset} is unusable, or null when it is sound. */
    public String problem(long offset) {
        try {
            return check(offset, null);
        } catch (IOException e) {
            return "cannot be read: " + e;
        }
    }

    /** Deletes snapshots older than {@code offset} (never the newest). Returns how many. */
    int deleteOlderThan(long offset) throws IOException {
        int n = 0;
        Long newest = offsets.isEmpty() ? null : offsets.lastKey();
        for (Long o : List.copyOf(offsets.headMap(offset).keySet())) {
            if (!o.equals(newest)) {
                Files.deleteIfExists(dir.resolve(name(o)));
                offsets.remove(o);
                n++;
            }
        }
        return n;
    }

    private Snapshot load(long offset) {
        Snapshot[] out = new Snapshot[1];
        String why;
        try {
            why = check(offset, out);
        } catch (IOException e) {
            why = "cannot be read: " + e;
        }
        if (why != null) {
            LOG.warn("journal.snapshot skipped file={} reason=\"{}\" (an older snapshot is used instead)", dir.resolve(name(offset)), why);
            return null;
        }
        offsets.replace(offset, Boolean.TRUE);
        return out[0];
    }

    private String check(long offset, Snapshot[] out) throws IOException {
        byte[] all;
        try {
            all = SegmentFiles.readRegular(dir.resolve(name(offset)), Integer.MAX_VALUE - 64);
        } catch (NoSuchFileException e) {
            return "missing";
        }
        if (all.length < HEADER) {
            return "only " + all.length + " bytes";
        }
        ByteBuffer b = ByteBuffer.wrap(all);
        if (b.getInt() != MAGIC || b.getShort() != VERSION) {
            return "not a snapshot of this format";
        }
        b.getShort();
        long o = b.getLong();
        long len = b.getLong();
        int crc = b.getInt();
        if (o != offset || len != all.length - HEADER) {
            return "header says offset " + o + " and " + len + " bytes; file is offset " + offset + " with " + (all.length - HEADER);
        }
        CRC32C c = new CRC32C();
        c.update(all, HEADER, all.length - HEADER);
        if ((int) c.getValue() != crc) {
            return "checksum mismatch";
        }
        if (out != null) {
            out[0] = new Snapshot(offset, java.util.Arrays.copyOfRange(all, HEADER, all.length));
        }
        return null;
    }
}
