package io.kproxy.journal;

import io.kproxy.events.EventCodec;
import io.kproxy.events.EventType;
import io.kproxy.journal.local.SegmentRef;
import io.kproxy.journal.local.Verifier;
import io.kproxy.journal.local.View;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Looks inside a local journal for operators and the CLI: its segments, how many records of each
 * event type a time range holds, and a full verification that reports every problem with the
 * file and the offsets it concerns. Works on a read-only open (a copied or offline journal,
 * nothing is modified) or on a journal this process has open. Thread-safe; every method but
 * {@link #segments()} reads the segments and blocks on I/O.
 */
public final class JournalInspector implements AutoCloseable {

    private final LocalJournal journal;
    private final boolean owned;

    private JournalInspector(LocalJournal journal, boolean owned) {
        this.journal = journal;
        this.owned = owned;
    }

    /** Opens {@code dir} read-only (no lock, nothing written); close the inspector to release it. */
    public static JournalInspector open(Path dir) {
        return new JournalInspector(LocalJournal.openReadOnly(dir), true);
    }

    /** Inspects a journal this process has open; closing the inspector leaves it open. */
    public static JournalInspector of(LocalJournal journal) {
        return new JournalInspector(journal, false);
    }

    /** Every segment, oldest first. */
    public List<SegmentInfo> segments() {
        View v = journal.state().view();
        List<SegmentInfo> out = new ArrayList<>(v.size());
        for (int i = 0; i < v.size(); i++) {
            SegmentRef r = v.get(i);
            Instant first = r.isEmpty() ? Instant.EPOCH : r.firstTime();
            out.add(new SegmentInfo(r.segment().name(), r.base(), r.lastOffset(), first, r.lastTime(), r.limit(), !r.active()));
        }
        return out;
    }

    /**
     * How many records of each type were accepted in {@code [from, to)}; types with none are
     * absent. Reads only record headers, but checks every checksum on the way.
     *
     * @throws EventLogException {@link Kind#CORRUPT} when damage is met inside the range
     */
    public Map<EventType, Long> countByType(Instant from, Instant to) {
        Map<EventType, Long> counts = new EnumMap<>(EventType.class);
        OptionalLong start = journal.offsetAt(from);
        if (start.isEmpty() || !from.isBefore(to)) {
            return counts;
        }
        journal.reader().scan(start.getAsLong(), Long.MAX_VALUE, (offset, bytes, off, len) -> {
            if (!EventCodec.peekRecordedAt(bytes, off, len).isBefore(to)) {
                return false;
            }
            counts.merge(EventCodec.peekType(bytes, off, len), 1L, Long::sum);
            return true;
        });
        return counts;
    }

    /**
     * Checks everything: headers, every record's checksum and decoding, offset continuity, time
     * order, index files, snapshots; plus what the open found (lost ranges with their offsets,
     * including those remembered in {@code lost-ranges}, stray segments, files that are not
     * regular files, unusable snapshots, and a torn tail a read-only open did not cut). Empty for
     * a healthy journal.
     */
    public List<JournalProblem> verify() {
        try {
            List<JournalProblem> found = new ArrayList<>();
            for (JournalProblem p : journal.openProblems()) {
                // a torn tail a read-write open cut, and an index it rebuilt, are repaired; everything else (lost ranges, strays,
                // unusable snapshots) stays a problem of the journal
                if (journal.isReadOnly() || p.kind() != JournalProblem.Kind.TORN_TAIL && p.kind() != JournalProblem.Kind.INDEX_DAMAGED) {
                    found.add(p);
                }
            }
            for (JournalProblem p : Verifier.verify(journal.directory(), journal.state().view(), journal.snapshots())) {
                if (found.stream().noneMatch(q -> q.kind() == p.kind() && q.file().equals(p.file()) && q.firstOffset() == p.firstOffset())) {
                    found.add(p);
                }
            }
            return found;
        } catch (IOException e) {
            throw new EventLogException(Kind.UNAVAILABLE, "verifying journal " + journal.directory() + " failed: " + e, e);
        }
    }

    /** The torn tail found at open (read-only) or cut by recovery (read-write). */
    public Optional<JournalProblem> tornTail() {
        return journal.tornTail();
    }

    @Override
    public void close() {
        if (owned) {
            journal.close();
        }
    }
}
