package io.kproxy.journal.local;

import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.JournalProblem.Kind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * After recovery found what is lost: notes a missing first segment, remembers every lost range
 * in the ledger (read-write), and decides which snapshots may be used. A snapshot at offset
 * {@code s} is usable only when the journal holds every record after it ({@code s >=
 * firstOffset - 1}, else the records between are missing), {@code s} is a record the journal
 * holds ({@code s < nextOffset}), and {@code s} is not inside a lost range. A snapshot inside a
 * lost range (or past a cut end) was folded from records the journal no longer has, and nothing
 * after it can be folded onto it: a read-write open moves it to {@code quarantine/}, and
 * {@link SnapshotStore} never hands one out. A snapshot after a lost range is the state at its
 * offset as it was folded: from the records when they were intact (damage found later), or by
 * the agent that stepped over the loss and relisted (the state it programmed); since a lost
 * offset is never given to a new record, the records after it are the ones it was folded
 * before. Runs once, in recovery.
 */
final class SnapshotGuard {

    /** Problems whose offsets are lost: not served, never reused. */
    private static final Set<Kind> LOSSES = EnumSet.of(Kind.DAMAGED_RECORD, Kind.UNDECODABLE_RECORD, Kind.BAD_HEADER, Kind.OFFSET_GAP,
            Kind.UNREADABLE_FILE, Kind.MISSING_RECORDS);

    private final Path dir;
    private final boolean readOnly;
    private final JournalState state;
    private final SnapshotStore snapshots;
    private final List<LostRangeLedger.Entry> ledger;
    private final List<JournalProblem> problems;
    /** The ranges snapshots are checked against: the ledger's, and (read-only) losses not yet in it. */
    private final List<LostRangeLedger.Entry> ranges = new ArrayList<>();

    SnapshotGuard(Path dir, boolean readOnly, JournalState state, SnapshotStore snapshots, List<LostRangeLedger.Entry> ledger,
                  List<JournalProblem> problems) {
        this.dir = dir;
        this.readOnly = readOnly;
        this.state = state;
        this.snapshots = snapshots;
        this.ledger = ledger;
        this.problems = problems;
    }

    void apply() throws IOException {
        View v = state.view();
        missingPrefix(v);
        List<LostRangeLedger.Entry> entries = new ArrayList<>(ledger);
        List<JournalProblem> found = problems.stream().filter(p -> LOSSES.contains(p.kind()) && p.firstOffset() >= 0
                && p.lastOffset() >= p.firstOffset()).toList();
        boolean changed = false;
        for (JournalProblem p : found) {
            if (entries.stream().anyMatch(e -> e.covers(p.firstOffset(), p.lastOffset()))) {
                continue;
            }
            String reason = p.kind() + " " + p.file() + ": " + p.detail();
            if (readOnly) {
                ranges.add(new LostRangeLedger.Entry(p.firstOffset(), p.lastOffset(), Long.MAX_VALUE, reason));
            } else {
                entries.add(new LostRangeLedger.Entry(p.firstOffset(), p.lastOffset(), Math.max(v.nextOffset(), p.lastOffset() + 1), reason));
                changed = true;
            }
        }
        for (LostRangeLedger.Entry e : ledger) {
            if (found.stream().noneMatch(p -> e.covers(p.firstOffset(), p.lastOffset()))) {
                problems.add(new JournalProblem(Kind.LOST_RANGE, LostRangeLedger.FILE, e.first(), e.last(), -1,
                        "lost since a read-write open before offset " + e.discoveredAt() + " found: " + e.reason()));
            }
        }
        if (changed) {
            LostRangeLedger.store(dir, entries);
        }
        ranges.addAll(entries);
        for (long s : snapshots.offsets()) {
            if (usable(s)) {
                continue;
            }
            String file = SegmentFiles.SNAPSHOTS + "/" + SnapshotStore.name(s);
            String where = readOnly ? "never used" : "moved to " + SegmentFiles.QUARANTINE + "/";
            if (s >= v.nextOffset()) {
                problems.add(new JournalProblem(Kind.SNAPSHOT_BEYOND_END, file, s, s, -1,
                        "covers offset " + s + " but the journal ends at " + (v.nextOffset() - 1) + "; " + where));
            } else {
                problems.add(new JournalProblem(Kind.SNAPSHOT_UNUSABLE, file, s, s, -1, (s < v.firstOffset() - 1
                        ? "the records after it up to offset " + (v.firstOffset() - 1) + " are missing"
                        : "it lies inside offsets the journal lost: folded from records it no longer has") + "; " + where));
            }
            if (!readOnly) {
                snapshots.quarantine(s, dir.resolve(SegmentFiles.QUARANTINE));
            }
        }
        snapshots.restrict(this::usable);
    }

    /** Whether the snapshot at {@code s} may be used, by the journal as it is now (retention moves its start). */
    boolean usable(long s) {
        View v = state.view();
        long first = v.firstOffset();
        if (s < first - 1 || s >= v.nextOffset()) {
            return false;
        }
        for (LostRangeLedger.Entry e : ranges) {
            if (e.first() <= s && s <= e.last()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The journal starts after offset 0 with no snapshot to start from, or a snapshot older than
     * its start remains: records were removed by hand (retention deletes such snapshots first and
     * never removes records no snapshot covers).
     */
    private void missingPrefix(View v) {
        long first = v.firstOffset();
        if (first <= 0 || v.size() == 0) {
            return;
        }
        long below = -1;
        List<Long> candidates = new ArrayList<>();
        for (long s : snapshots.offsets()) {
            if (s < first - 1) {
                below = Math.max(below, s);
            } else if (s < v.nextOffset()) {
                candidates.addFirst(s); // newest first: usually the first one read is sound
            }
        }
        if (below < 0 && candidates.stream().anyMatch(s -> snapshots.problem(s) == null)) {
            return; // what retention leaves
        }
        problems.add(new JournalProblem(Kind.MISSING_RECORDS, v.get(0).segment().name(), below + 1, first - 1, -1,
                "the journal starts at offset " + first + (below >= 0 ? " but snapshot " + below + " shows the records after it existed"
                        : " and no snapshot covers the records before it") + "; the segment that held them is gone"));
    }
}
