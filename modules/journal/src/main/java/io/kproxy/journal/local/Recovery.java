package io.kproxy.journal.local;

import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.JournalProblem.Kind;
import io.kproxy.journal.spi.EventLogException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a journal directory: finds the segments, loads (or rebuilds) the index of each sealed
 * one, scans the last one to its end, and decides what is readable and what is lost.
 *
 * <ul>
 *   <li>A <b>torn tail</b> (the last segment ends in an incomplete frame, zeros or garbage, with no
 *       sound frame after it: what a crash during a write leaves) is cut by a read-write open
 *       (bytes saved under {@code quarantine/}, one log line); a read-only open reports it.</li>
 *   <li><b>Corruption</b> (a bad frame with a sound frame after it, an undecodable record, a bad
 *       header on a segment that holds records) is never cut: a read-write open keeps the bytes
 *       (and a copy under {@code quarantine/}), seals the segment, and starts the next one past
 *       the most records the damaged bytes can have held ({@link Resync#maxRecords}), so that a
 *       lost offset is never given to a new record. Damage in a sealed segment is reported the
 *       same way. Reads of lost offsets fail, naming them; records before and after are served.</li>
 *   <li>Gaps between segments, a missing first segment ({@link SnapshotGuard#missingPrefix}), a
 *       stray last segment holding nothing past a gap (moved aside by a read-write open), files
 *       that are not regular files: reported with their offsets.</li>
 *   <li>Every lost range is remembered in {@code lost-ranges} ({@link LostRangeLedger}) by a
 *       read-write open, and snapshots ahead of the intact records are moved to
 *       {@code quarantine/} ({@link SnapshotGuard}).</li>
 * </ul>
 *
 * <p>Why only the last segment can be torn: a segment is forced before the next one is created,
 * so only the last can hold a write interrupted by a crash (Kafka's {@code LogLoader} recovers
 * the same way).
 */
public final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    /** What opening found. {@code tornTail} is null when the tail was sound. */
    public record Result(JournalState state, SnapshotStore snapshots, Instant lastTime, List<JournalProblem> problems, JournalProblem tornTail) {
    }

    /** The last segment's refs (two when corruption sealed it and a new one was started) and the view's end. */
    private record Last(List<SegmentRef> refs, long next) {
    }

    private final Path dir;
    private final int interval;
    private final boolean readOnly;
    private final List<JournalProblem> problems = new ArrayList<>();
    private final List<LostRangeLedger.Entry> ledger = new ArrayList<>();
    private JournalProblem tornProblem;

    private Recovery(Path dir, int interval, boolean readOnly) {
        this.dir = dir;
        this.interval = interval;
        this.readOnly = readOnly;
    }

    /** Opens {@code dir}; the caller holds the directory lock unless {@code readOnly}. */
    public static Result open(Path dir, int indexInterval, boolean readOnly) throws IOException {
        return new Recovery(dir, indexInterval, readOnly).run();
    }

    private Result run() throws IOException {
        LostRangeLedger.Loaded known = LostRangeLedger.load(dir);
        ledger.addAll(known.entries());
        known.unreadable().forEach(u -> problems.add(new JournalProblem(Kind.UNREADABLE_FILE, LostRangeLedger.FILE, -1, -1, -1, u)));
        TreeMap<Long, Path> segments = listAndTidy();
        if (segments.isEmpty() && !readOnly) {
            Segments.create(dir, 0).close();
            segments.put(0L, dir.resolve(SegmentFiles.segmentName(0)));
        }
        List<Map.Entry<Long, Path>> files = new ArrayList<>(segments.entrySet());
        List<SegmentRef> refs = new ArrayList<>();
        List<Instant> timeBefore = new ArrayList<>();
        Instant lastTime = Instant.EPOCH;
        for (int i = 0; i + 1 < files.size(); i++) {
            timeBefore.add(lastTime);
            SegmentRef r = openSealed(files.get(i).getKey(), files.get(i).getValue(), files.get(i + 1).getKey() - 1, lastTime);
            refs.add(r);
            lastTime = r.isEmpty() ? lastTime : r.lastTime();
        }
        long next = 0;
        if (!files.isEmpty()) {
            Map.Entry<Long, Path> last = files.getLast();
            if (!refs.isEmpty() && isStray(refs.getLast(), last.getKey(), last.getValue())) {
                setAsideStray(refs.getLast(), last.getKey(), last.getValue());
                last = files.get(files.size() - 2); // its predecessor is the last segment again, open for appends
                refs.removeLast();
                lastTime = timeBefore.removeLast();
            }
            Last l = openLast(last.getKey(), last.getValue(), lastTime);
            refs.addAll(l.refs());
            next = l.next();
            for (SegmentRef r : l.refs()) {
                lastTime = r.isEmpty() ? lastTime : r.lastTime();
            }
        }
        noteGaps(refs);
        View view = new View(refs.toArray(SegmentRef[]::new), next);
        JournalState state = new JournalState(view);
        SnapshotStore snapshots = new SnapshotStore(dir.resolve(SegmentFiles.SNAPSHOTS), readOnly);
        new SnapshotGuard(dir, readOnly, state, snapshots, ledger, problems).apply();
        for (JournalProblem p : problems) {
            LOG.warn("journal.open problem kind={} file={} firstOffset={} lastOffset={} position={} detail=\"{}\"", p.kind(), p.file(),
                    p.firstOffset(), p.lastOffset(), p.position(), p.detail());
        }
        return new Result(state, snapshots, lastTime, List.copyOf(problems), tornProblem);
    }

    /** Offsets missing or claimed twice between two segments (a damaged segment's lost range already covers its gap). */
    private void noteGaps(List<SegmentRef> refs) {
        for (int k = 0; k + 1 < refs.size(); k++) {
            SegmentRef r = refs.get(k);
            long expected = refs.get(k + 1).base() - 1;
            if (!r.damaged() && r.lastOffset() != expected) {
                Kind kind = r.lastOffset() < expected ? Kind.OFFSET_GAP : Kind.OFFSET_OVERLAP;
                problems.add(new JournalProblem(kind, r.segment().name(), Math.min(r.lastOffset(), expected) + 1,
                        Math.max(r.lastOffset(), expected), -1, "segment ends at offset " + r.lastOffset() + " but the next one starts at "
                        + (expected + 1) + (kind == Kind.OFFSET_GAP ? "; the offsets between are not served" : "")));
            }
        }
    }

    /** Segment files by base; a read-write open also removes leftovers of interrupted writes. */
    private TreeMap<Long, Path> listAndTidy() throws IOException {
        TreeMap<Long, Path> segments = new TreeMap<>();
        List<Path> indexes = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                long base = SegmentFiles.baseOf(n);
                if (base >= 0) {
                    segments.put(base, p);
                } else if (n.endsWith(SegmentFiles.INDEX_SUFFIX)) {
                    indexes.add(p);
                } else if (n.endsWith(".tmp") && !readOnly) {
                    deleteQuietly(p);
                }
            }
        }
        for (Path idx : indexes) {
            String seg = idx.getFileName().toString().replace(SegmentFiles.INDEX_SUFFIX, SegmentFiles.SEGMENT_SUFFIX);
            if (!Files.exists(idx.resolveSibling(seg)) && !readOnly) {
                deleteQuietly(idx); // its segment went to retention; the index is worthless alone
            }
        }
        return segments;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            LOG.warn("journal.open leftover kept file={} error=\"{}\"", p, e.toString()); // e.g. a directory of that name
        }
    }

    private SegmentRef openSealed(long base, Path path, long expectedLast, Instant previousTime) throws IOException {
        String name = path.getFileName().toString();
        Segment seg = new Segment(base, path, new SparseIndex());
        long size;
        String bad;
        try {
            String notRegular = SegmentFiles.notRegular(path);
            if (notRegular != null) {
                return unreadable(seg, expectedLast, notRegular, false);
            }
            size = Files.size(path);
            bad = headerProblem(path, base);
        } catch (IOException e) {
            return unreadable(seg, expectedLast, "cannot be read: " + e, false);
        }
        if (bad != null) {
            problems.add(new JournalProblem(Kind.BAD_HEADER, name, base, expectedLast, 0, bad + "; none of its records is served"));
            return new SegmentRef(seg, SegmentFiles.HEADER, base - 1, Instant.EPOCH, false, bad);
        }
        Path idxPath = dir.resolve(SegmentFiles.indexName(base));
        String[] why = new String[1];
        IndexFile.Loaded loaded = IndexFile.load(idxPath, base, size, why);
        if (loaded != null) {
            return new SegmentRef(new Segment(base, path, loaded.index()), size, loaded.lastOffset(), loaded.lastTime(), false);
        }
        if (!"missing".equals(why[0])) {
            problems.add(new JournalProblem(Kind.INDEX_DAMAGED, idxPath.getFileName().toString(), base, expectedLast, -1,
                    why[0] + "; rebuilt from " + name));
        }
        SegmentScan scan;
        try {
            scan = SegmentScan.run(seg, size, interval, previousTime);
        } catch (IOException e) {
            return unreadable(seg, expectedLast, "cannot be read: " + e, false);
        }
        noteBackwards(name, scan);
        if (!scan.clean()) {
            problems.add(new JournalProblem(scan.undecodable() ? Kind.UNDECODABLE_RECORD : Kind.DAMAGED_RECORD, name, scan.lastOffset() + 1,
                    Math.max(expectedLast, scan.lastOffset() + 1), scan.validEnd(), scan.detail() + "; the offsets after it are not served"));
            return new SegmentRef(seg, scan.validEnd(), scan.lastOffset(), scan.lastTime(), false, scan.detail());
        }
        if (!readOnly) {
            try {
                IndexFile.store(idxPath, base, seg.index(), size, scan.lastOffset(), scan.lastTime());
                LOG.info("journal.index rebuilt segment={} reason=\"{}\" entries={}", name, why[0], seg.index().size());
            } catch (IOException e) {
                LOG.warn("journal.index rebuilt in memory only segment={} error=\"{}\"", name, e.toString()); // e.g. a full disk
            }
        }
        return new SegmentRef(seg, size, scan.lastOffset(), scan.lastTime(), false);
    }

    /** A segment none of whose records can be read (-1 as {@code expectedLast}: up to the view's end). */
    private SegmentRef unreadable(Segment seg, long expectedLast, String why, boolean active) {
        problems.add(new JournalProblem(Kind.UNREADABLE_FILE, seg.name(), seg.base(), expectedLast, -1, why + "; none of its records is served"));
        return new SegmentRef(seg, SegmentFiles.HEADER, seg.base() - 1, Instant.EPOCH, active, why);
    }

    /**
     * Whether the last segment is a stray: it starts past a gap after a sound segment, no
     * recorded loss explains the gap, and it holds no sound frame (an empty file, or one named far
     * past the end). Appending to it would leave the gap for good; it is not part of the journal.
     */
    private boolean isStray(SegmentRef previous, long base, Path path) {
        if (previous.damaged() || previous.lastOffset() >= base - 1 || ledgerCovers(previous.lastOffset() + 1, base - 1)) {
            return false;
        }
        Segment seg = new Segment(base, path, new SparseIndex());
        try {
            if (SegmentFiles.notRegular(path) != null || Files.size(path) <= SegmentFiles.HEADER) {
                return true;
            }
            return Resync.nextSoundFrame(seg, SegmentFiles.HEADER - 1, Files.size(path)) < 0;
        } catch (IOException e) {
            return true;
        } finally {
            seg.close();
        }
    }

    private boolean ledgerCovers(long first, long last) {
        return ledger.stream().anyMatch(e -> e.covers(first, last));
    }

    private void setAsideStray(SegmentRef previous, long base, Path path) throws IOException {
        String name = path.getFileName().toString();
        String what = "starts at offset " + base + " but the journal ends at " + previous.lastOffset() + ", and it holds no record";
        if (readOnly) {
            problems.add(new JournalProblem(Kind.STRAY_SEGMENT, name, -1, -1, -1, what + "; not read (a read-write open moves it to quarantine/)"));
            return;
        }
        Path q = dir.resolve(SegmentFiles.QUARANTINE);
        SegmentFiles.ensurePrivateDir(q);
        Path saved = Quarantine.unique(q, name + ".stray");
        Files.move(path, saved, StandardCopyOption.ATOMIC_MOVE);
        // the previous segment is the active one again: its index describes a sealed segment
        Files.deleteIfExists(dir.resolve(SegmentFiles.indexName(previous.base())));
        SegmentFiles.fsyncDirectory(dir);
        problems.add(new JournalProblem(Kind.STRAY_SEGMENT, name, -1, -1, -1, what + "; moved to " + dir.relativize(saved)
                + ", appends continue at " + (previous.lastOffset() + 1)));
        LOG.warn("journal.recovery stray segment={} journalEnd={} savedTo={}", name, previous.lastOffset(), saved);
    }

    private Last openLast(long base, Path path, Instant previousTime) throws IOException {
        String name = path.getFileName().toString();
        Segment seg = new Segment(base, path, new SparseIndex());
        String notRegular = SegmentFiles.notRegular(path);
        if (notRegular != null) {
            if (!readOnly) {
                throw new EventLogException(EventLogException.Kind.CORRUPT, "journal segment " + path + " " + notRegular
                        + ": the journal cannot append after it; move it aside (docs/operations.md, \"Damaged journal\")");
            }
            return new Last(List.of(unreadable(seg, -1, notRegular, true)), base);
        }
        long size = Files.size(path);
        String bad = headerProblem(path, base);
        if (bad != null) {
            if (size > SegmentFiles.HEADER && Resync.nextSoundFrame(seg, SegmentFiles.HEADER - 1, size) >= 0) {
                return corrupt(seg, SegmentFiles.HEADER, base - 1, Instant.EPOCH, size, bad, Kind.BAD_HEADER);
            }
            tornProblem = new JournalProblem(Kind.TORN_TAIL, name, base, -1, 0, bad + "; " + size + " bytes, no record");
            problems.add(tornProblem);
            if (!readOnly) {
                cut(path, 0, size, base, bad);
                try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                    SegmentFiles.writeFully(ch, SegmentFiles.header(base), 0);
                    ch.force(true);
                }
            }
            return new Last(List.of(new SegmentRef(seg, SegmentFiles.HEADER, base - 1, Instant.EPOCH, true)), base);
        }
        SegmentScan scan = SegmentScan.run(seg, size, interval, previousTime);
        noteBackwards(name, scan);
        if (!scan.clean()) {
            if (scan.undecodable() || Resync.nextSoundFrame(seg, scan.validEnd(), size) >= 0) {
                return corrupt(seg, scan.validEnd(), scan.lastOffset(), scan.lastTime(), size, scan.detail(),
                        scan.undecodable() ? Kind.UNDECODABLE_RECORD : Kind.DAMAGED_RECORD);
            }
            long cutBytes = size - scan.validEnd();
            String why = scan.detail() + "; " + cutBytes + " bytes from byte " + scan.validEnd() + " to the end, no sound frame after it";
            tornProblem = new JournalProblem(Kind.TORN_TAIL, name, scan.lastOffset() + 1, -1, scan.validEnd(), why);
            problems.add(tornProblem);
            if (!readOnly) {
                cut(path, scan.validEnd(), size, scan.lastOffset() + 1, scan.detail());
            }
        }
        return new Last(List.of(new SegmentRef(seg, scan.validEnd(), scan.lastOffset(), scan.lastTime(), true)), scan.lastOffset() + 1);
    }

    /**
     * Corruption in the last segment: the records after {@code lastSound} are lost, but never cut.
     * The view's end moves past the most records the damaged bytes can have held; a read-write
     * open seals the segment as it is and creates the next one there.
     */
    private Last corrupt(Segment seg, long soundEnd, long lastSound, Instant lastTime, long size, String why, Kind kind) throws IOException {
        long lostBytes = size - soundEnd;
        long next = lastSound + 1 + Resync.maxRecords(lostBytes);
        String detail = why + "; sound records follow, so this is damage, not a torn write: offsets " + (lastSound + 1) + ".." + (next - 1)
                + " (at most " + Resync.maxRecords(lostBytes) + " records in the " + lostBytes + " bytes from byte " + soundEnd
                + ") are not served" + (readOnly ? "" : "; the segment is kept sealed and appends continue at offset " + next);
        problems.add(new JournalProblem(kind, seg.name(), lastSound + 1, next - 1, soundEnd, detail));
        SegmentRef damaged = new SegmentRef(seg, soundEnd, lastSound, lastTime, readOnly, why);
        if (readOnly) {
            return new Last(List.of(damaged), next);
        }
        Path saved = Quarantine.copy(dir, seg.path(), soundEnd, size, ".damaged");
        Segments.create(dir, next).close();
        LOG.error("journal.recovery damaged segment={} position={} bytes={} lostOffsets={}..{} savedTo={} nextSegment={} reason=\"{}\"",
                seg.name(), soundEnd, lostBytes, lastSound + 1, next - 1, saved, SegmentFiles.segmentName(next), why);
        Segment fresh = new Segment(next, dir.resolve(SegmentFiles.segmentName(next)), new SparseIndex());
        return new Last(List.of(damaged, new SegmentRef(fresh, SegmentFiles.HEADER, next - 1, Instant.EPOCH, true)), next);
    }

    private void noteBackwards(String name, SegmentScan scan) {
        if (scan.backwardsAt() >= 0) {
            problems.add(new JournalProblem(Kind.TIME_WENT_BACKWARDS, name, scan.backwardsAt(), scan.backwardsAt(), -1,
                    "record time precedes its predecessor's; time lookups near it may be off"));
        }
    }

    /** Saves {@code [from, size)} of {@code path} under quarantine/, then truncates the file to {@code from}. */
    private void cut(Path path, long from, long size, long firstLostOffset, String reason) throws IOException {
        Path saved = Quarantine.copy(dir, path, from, size, ".torn");
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.WRITE)) {
            in.truncate(from);
            in.force(true);
        }
        LOG.warn("journal.recovery cut segment={} position={} bytes={} firstLostOffset={} reason=\"{}\" savedTo={}",
                path.getFileName(), from, size - from, firstLostOffset, reason, saved);
    }

    /** Why the file's first bytes are not the header of segment {@code base}, or null; the caller checked it is a regular file. */
    private static String headerProblem(Path path, long base) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer h = ByteBuffer.allocate(SegmentFiles.HEADER);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // keep reading: a short read is not the end of the file
            }
            return SegmentFiles.headerProblem(h.flip(), base);
        }
    }
}
