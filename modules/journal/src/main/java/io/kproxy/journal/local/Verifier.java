package io.kproxy.journal.local;

import io.kproxy.events.EventCodec;
import io.kproxy.events.EventDecodeException;
import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.JournalProblem.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a whole journal: every segment header, every frame's length and checksum, every record's
 * decoding, the continuity of offsets between segments, the order of times, the index files and
 * the snapshots. Collects every problem instead of stopping at the first; within a segment it
 * cannot go past a damaged frame (the next frame boundary is unknown) and resumes at the next
 * segment. A segment recovery already found damaged (its lost range is among the open's
 * problems) is checked up to its sound end only; one that is not a regular file is never opened.
 * Reads only; blocks on I/O. Not thread-safe: one per verification.
 */
public final class Verifier {

    private final List<JournalProblem> out = new ArrayList<>();
    private Instant prevTime = Instant.MIN;

    private Verifier() {
    }

    public static List<JournalProblem> verify(Path dir, View view, SnapshotStore snapshots) throws IOException {
        return new Verifier().run(dir, view, snapshots);
    }

    private List<JournalProblem> run(Path dir, View view, SnapshotStore snapshots) throws IOException {
        long expected = view.size() == 0 ? 0 : view.get(0).base();
        for (int i = 0; i < view.size(); i++) {
            SegmentRef ref = view.get(i);
            Segment seg = ref.segment();
            long lastExpected = view.expectedLast(i);
            if (ref.base() != expected && i > 0) {
                Kind k = ref.base() > expected ? Kind.OFFSET_GAP : Kind.OFFSET_OVERLAP;
                out.add(new JournalProblem(k, seg.name(), Math.min(expected, ref.base()), Math.max(expected, ref.base()) - 1, -1,
                        "the previous segment ends at offset " + (expected - 1) + " but this one starts at " + ref.base()));
            }
            expected = lastExpected + 1;
            if (ref.damaged() && ref.limit() <= SegmentFiles.HEADER) {
                continue; // unreadable, not a regular file, or a bad header: reported by the open, nothing to read
            }
            long end;
            try {
                end = segment(ref, lastExpected);
            } catch (IOException e) {
                out.add(new JournalProblem(Kind.UNREADABLE_FILE, seg.name(), ref.base(), lastExpected, -1, "cannot be read: " + e.getMessage()));
                continue;
            }
            if (end < 0) {
                continue; // damage, reported
            }
            expected = end;
            if (!ref.damaged() && i + 1 == view.size() && end != view.nextOffset()) {
                out.add(new JournalProblem(Kind.OFFSET_GAP, seg.name(), end, view.nextOffset() - 1, ref.limit(),
                        "the segment ends at offset " + (end - 1) + " but the journal's end is " + (view.nextOffset() - 1)));
            }
            if (!ref.active() && !ref.damaged()) {
                Path idx = dir.resolve(SegmentFiles.indexName(ref.base()));
                String[] why = new String[1];
                if (Files.exists(idx, LinkOption.NOFOLLOW_LINKS) && IndexFile.load(idx, ref.base(), ref.limit(), why) == null) {
                    out.add(new JournalProblem(Kind.INDEX_DAMAGED, idx.getFileName().toString(), ref.base(), lastExpected, -1,
                            why[0] + " (the index is rebuilt from the segment on the next read-write open)"));
                }
            }
        }
        for (long o : snapshots.offsets()) {
            String file = SegmentFiles.SNAPSHOTS + "/" + SnapshotStore.name(o);
            if (o >= view.nextOffset()) {
                out.add(new JournalProblem(Kind.SNAPSHOT_BEYOND_END, file, o, o, -1,
                        "covers offset " + o + " but the journal ends at " + (view.nextOffset() - 1)));
                continue;
            }
            String why = snapshots.problem(o);
            if (why != null) {
                out.add(new JournalProblem(Kind.SNAPSHOT_DAMAGED, file, o, o, -1, why));
            }
        }
        return out;
    }

    /** Checks one segment; returns the offset after its last record, or -1 when it stopped at damage (reported). */
    private long segment(SegmentRef ref, long lastExpected) throws IOException {
        Segment seg = ref.segment();
        ByteBuffer h = ByteBuffer.allocate(SegmentFiles.HEADER);
        while (h.hasRemaining() && seg.read(h, h.position()) > 0) {
            // a short read is not the end of the file
        }
        String bad = SegmentFiles.headerProblem(h.flip(), ref.base());
        if (bad != null) {
            out.add(new JournalProblem(Kind.BAD_HEADER, seg.name(), ref.base(), lastExpected, 0, bad));
            return -1;
        }
        FrameScanner s = new FrameScanner(seg, SegmentFiles.HEADER, ref.limit());
        long offset = ref.base();
        boolean backwardsNoted = false;
        while (s.next()) {
            try {
                Instant t = EventCodec.decode(offset, s.array(), s.payloadOffset(), s.payloadLength()).recordedAt();
                if (t.isBefore(prevTime) && !backwardsNoted) {
                    backwardsNoted = true;
                    out.add(new JournalProblem(Kind.TIME_WENT_BACKWARDS, seg.name(), offset, offset, s.framePosition(),
                            "recorded at " + t + ", before its predecessor's " + prevTime));
                }
                prevTime = t;
            } catch (EventDecodeException e) {
                out.add(new JournalProblem(Kind.UNDECODABLE_RECORD, seg.name(), offset, offset, s.framePosition(),
                        "sound checksum but the record cannot be decoded: " + e.getMessage()));
            }
            offset++;
        }
        if (s.stop() != FrameScanner.Stop.END) {
            out.add(new JournalProblem(Kind.DAMAGED_RECORD, seg.name(), offset, Math.max(offset, lastExpected), s.framePosition(),
                    s.detail() + "; the offsets after it are not served"));
            return -1;
        }
        return ref.damaged() ? -1 : offset;
    }
}
