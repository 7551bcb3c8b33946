package io.kproxy.journal.local;

import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.JournalProblem.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a journal directory: finds the segments, loads (or rebuilds) the index of each sealed
 * one, scans the last one to its end, and decides what is readable. A read-write open cuts a torn
 * tail of the last segment (saving the cut bytes under {@code quarantine/} and logging exactly what
 * was cut); a read-only open changes nothing and reports it. Damage inside a sealed segment is
 * never cut: it is reported, and readers stop there with an error.
 *
 * <p>Why only the last segment: a segment is forced before the next one is created, so only the
 * last can hold a write interrupted by a crash (Kafka's {@code LogLoader} recovers the same way).
 */
public final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    /** What opening found. {@code tornTail} is null when the tail was sound. */
    public record Result(JournalState state, SnapshotStore snapshots, Instant lastTime, List<JournalProblem> problems, JournalProblem tornTail) {
    }

    private final Path dir;
    private final int interval;
    private final boolean readOnly;
    private final List<JournalProblem> problems = new ArrayList<>();
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
        TreeMap<Long, Path> segments = listAndTidy();
        if (segments.isEmpty() && !readOnly) {
            Segments.create(dir, 0).close();
            segments.put(0L, dir.resolve(SegmentFiles.segmentName(0)));
        }
        List<SegmentRef> refs = new ArrayList<>();
        List<Boolean> damaged = new ArrayList<>();
        JournalProblem torn = null;
        Instant lastTime = Instant.EPOCH;
        int i = 0;
        for (var e : segments.entrySet()) {
            boolean last = ++i == segments.size();
            Long nextBase = segments.higherKey(e.getKey());
            if (last) {
                SegmentRef ref = openLast(e.getKey(), e.getValue(), lastTime);
                torn = tornProblem;
                refs.add(ref);
                damaged.add(false);
            } else {
                int before = problems.size();
                SegmentRef ref = openSealed(e.getKey(), e.getValue(), nextBase - 1, lastTime);
                refs.add(ref);
                damaged.add(problems.subList(before, problems.size()).stream()
                        .anyMatch(p -> p.kind() == Kind.DAMAGED_RECORD || p.kind() == Kind.UNDECODABLE_RECORD));
            }
            SegmentRef r = refs.getLast();
            if (!r.isEmpty()) {
                lastTime = r.lastTime();
            }
        }
        for (int k = 0; k + 1 < refs.size(); k++) {
            SegmentRef r = refs.get(k);
            long expected = refs.get(k + 1).base() - 1;
            if (!damaged.get(k) && r.lastOffset() != expected) {
                Kind kind = r.lastOffset() < expected ? Kind.OFFSET_GAP : Kind.OFFSET_OVERLAP;
                problems.add(new JournalProblem(kind, r.segment().name(), Math.min(r.lastOffset(), expected) + 1,
                        Math.max(r.lastOffset(), expected), -1, "segment ends at offset " + r.lastOffset() + " but the next one starts at "
                        + (expected + 1)));
            }
        }
        long next = refs.isEmpty() ? 0 : refs.getLast().lastOffset() + 1;
        View view = new View(refs.toArray(SegmentRef[]::new), next);
        SnapshotStore snapshots = new SnapshotStore(dir.resolve(SegmentFiles.SNAPSHOTS), readOnly);
        for (long s : snapshots.offsets()) {
            if (s >= next) {
                problems.add(new JournalProblem(Kind.SNAPSHOT_BEYOND_END, SegmentFiles.SNAPSHOTS + "/" + SnapshotStore.name(s), s, s, -1,
                        "covers offset " + s + " but the journal ends at " + (next - 1) + "; ignored"));
            }
        }
        for (JournalProblem p : problems) {
            LOG.warn("journal.open problem kind={} file={} firstOffset={} lastOffset={} position={} detail=\"{}\"", p.kind(), p.file(),
                    p.firstOffset(), p.lastOffset(), p.position(), p.detail());
        }
        return new Result(new JournalState(view), snapshots, lastTime, List.copyOf(problems), torn);
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
                    Files.deleteIfExists(p);
                }
            }
        }
        for (Path idx : indexes) {
            String seg = idx.getFileName().toString().replace(SegmentFiles.INDEX_SUFFIX, SegmentFiles.SEGMENT_SUFFIX);
            if (!Files.exists(idx.resolveSibling(seg)) && !readOnly) {
                Files.deleteIfExists(idx); // its segment went to retention; the index is worthless alone
            }
        }
        return segments;
    }

    private SegmentRef openSealed(long base, Path path, long expectedLast, Instant previousTime) throws IOException {
        long size = Files.size(path);
        String name = path.getFileName().toString();
        String bad = headerProblem(path, base);
        if (bad != null) {
            problems.add(new JournalProblem(Kind.BAD_HEADER, name, base, expectedLast, 0, bad));
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
        Segment seg = new Segment(base, path, new SparseIndex());
        SegmentScan scan = SegmentScan.run(seg, size, interval, previousTime);
        noteBackwards(name, scan);
        if (!scan.clean()) {
            problems.add(new JournalProblem(scan.undecodable() ? Kind.UNDECODABLE_RECORD : Kind.DAMAGED_RECORD, name, scan.lastOffset() + 1,
                    Math.max(expectedLast, scan.lastOffset() + 1), scan.validEnd(), scan.detail() + "; reading stops there"));
        } else if (!readOnly) {
            try {
                IndexFile.store(idxPath, base, seg.index(), size, scan.lastOffset(), scan.lastTime());
                LOG.info("journal.index rebuilt segment={} reason=\"{}\" entries={}", name, why[0], seg.index().size());
            } catch (IOException e) {
                LOG.warn("journal.index rebuilt in memory only segment={} error=\"{}\"", name, e.toString()); // e.g. a full disk
            }
        }
        return new SegmentRef(seg, size, scan.clean() ? scan.lastOffset() : expectedLast, scan.lastTime(), false);
    }

    private SegmentRef openLast(long base, Path path, Instant previousTime) throws IOException {
        long size = Files.size(path);
        String name = path.getFileName().toString();
        Segment seg = new Segment(base, path, new SparseIndex());
        String bad = headerProblem(path, base);
        if (bad != null) {
            tornProblem = new JournalProblem(Kind.TORN_TAIL, name, base, -1, 0, bad + "; " + size + " bytes");
            problems.add(tornProblem);
            if (!readOnly) {
                cut(path, 0, size, base, bad);
                try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                    SegmentFiles.writeFully(ch, SegmentFiles.header(base), 0);
                    ch.force(true);
                }
            }
            return new SegmentRef(seg, SegmentFiles.HEADER, base - 1, Instant.EPOCH, true);
        }
        SegmentScan scan = SegmentScan.run(seg, size, interval, previousTime);
        noteBackwards(name, scan);
        if (!scan.clean()) {
            long cutBytes = size - scan.validEnd();
            String why = scan.detail() + "; " + cutBytes + " bytes from byte " + scan.validEnd() + " to the end";
            tornProblem = new JournalProblem(Kind.TORN_TAIL, name, scan.lastOffset() + 1, -1, scan.validEnd(), why);
            problems.add(tornProblem);
            if (!readOnly) {
                cut(path, scan.validEnd(), size, scan.lastOffset() + 1, scan.detail());
            }
        }
        return new SegmentRef(seg, scan.validEnd(), scan.lastOffset(), scan.lastTime(), true);
    }

    private void noteBackwards(String name, SegmentScan scan) {
        if (scan.backwardsAt() >= 0) {
            problems.add(new JournalProblem(Kind.TIME_WENT_BACKWARDS, name, scan.backwardsAt(), scan.backwardsAt(), -1,
                    "record time precedes its predecessor's; time lookups near it may be off"));
        }
    }

    /** Saves {@code [from, size)} of {@code path} under quarantine/, then truncates the file to {@code from}. */
    private void cut(Path path, long from, long size, long firstLostOffset, String reason) throws IOException {
        Path q = dir.resolve(SegmentFiles.QUARANTINE);
        SegmentFiles.ensurePrivateDir(q);
        String base = path.getFileName() + "." + from;
        Path saved = q.resolve(base + ".torn");
        for (int n = 1; Files.exists(saved); n++) {
            saved = q.resolve(base + "-" + n + ".torn");
        }
        try (FileChannel in = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileChannel out = FileChannel.open(saved, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                     SegmentFiles.privateFile())) {
            long done = 0;
            while (done < size - from) {
                done += in.transferTo(from + done, size - from - done, out);
            }
            out.force(true);
            SegmentFiles.fsyncDirectory(q);
            in.truncate(from);
            in.force(true);
        }
        LOG.warn("journal.recovery cut segment={} position={} bytes={} firstLostOffset={} reason=\"{}\" savedTo={}",
                path.getFileName(), from, size - from, firstLostOffset, reason, saved);
    }

    private static String headerProblem(Path path, long base) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer h = ByteBuffer.allocate(SegmentFiles.HEADER);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // keep reading: a short read is not the end of the file
            }
            return SegmentFiles.headerProblem(h.flip(), base);
        }
    }
}
