package io.kproxy.history;

import io.kproxy.events.EventType;
import io.kproxy.history.HistoryException.Reason;
import io.kproxy.journal.JournalInspector;
import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.SegmentInfo;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code kproxy journal inspect} and {@code verify} as text: segments, time range, snapshots and
 * records per event type; or every problem {@link JournalInspector#verify()} finds, with file,
 * byte position and offsets. Opens the journal read-only (nothing written, no lock). Blocks on I/O;
 * thread-safe (stateless); never returns null.
 */
public final class JournalReport {

    /** A verification: the text, and whether the journal is sound. */
    public record Verification(boolean sound, String text) {
    }

    private JournalReport() {
    }

    /**
     * Segments, range, snapshots and counts by event type of the records accepted in
     * {@code [from, to)} (the whole journal when both are empty).
     *
     * @throws HistoryException {@link Reason#UNREADABLE} when there is no journal, or damage is met while counting
     */
    public static String inspect(Path dir, Optional<Instant> from, Optional<Instant> to) {
        try (JournalInspector inspector = open(dir); LocalJournal journal = LocalJournal.openReadOnly(dir)) {
            List<SegmentInfo> segments = inspector.segments();
            StringBuilder out = new StringBuilder();
            long records = segments.stream().mapToLong(SegmentInfo::recordCount).sum();
            long bytes = segments.stream().mapToLong(SegmentInfo::bytes).sum();
            out.append("segments: ").append(segments.size()).append(", ").append(records).append(records == 1 ? " record, " : " records, ")
                    .append(size(bytes)).append('\n');
            for (SegmentInfo s : segments) {
                out.append("  ").append(s.name()).append("  ");
                if (s.recordCount() == 0) {
                    out.append("empty");
                } else {
                    out.append('#').append(s.firstOffset()).append("..#").append(s.lastOffset()).append("  ").append(Describe.time(s.firstTime()))
                            .append(" .. ").append(Describe.time(s.lastTime()));
                }
                out.append("  ").append(size(s.bytes())).append(s.sealed() ? "  sealed" : "  active").append('\n');
            }
            Instant first = segments.stream().filter(s -> s.recordCount() > 0).map(SegmentInfo::firstTime).findFirst().orElse(Instant.EPOCH);
            Instant last = segments.stream().filter(s -> s.recordCount() > 0).map(SegmentInfo::lastTime).reduce((a, b) -> b).orElse(Instant.EPOCH);
            if (records > 0) {
                out.append("records: #").append(journal.firstOffset()).append("..#").append(journal.nextOffset() - 1).append(", ")
                        .append(Describe.time(first)).append(" .. ").append(Describe.time(last)).append('\n');
            }
            List<Snapshot> snapshots = snapshots(journal);
            out.append("snapshots: ").append(snapshots.isEmpty() ? "none" : String.join(", ", snapshots.stream()
                    .map(s -> "#" + s.offset() + " (" + size(s.size()) + ")").toList())).append('\n');
            Instant lo = from.orElse(first);
            Instant hi = to.orElse(last.plusNanos(1));
            Map<EventType, Long> counts;
            try {
                counts = inspector.countByType(lo, hi);
            } catch (EventLogException e) {
                // damage inside the window: the rest of the report still helps; verify lists it all
                out.append("records by type: cannot be counted: ").append(e.getMessage()).append(" (kproxy journal verify)\n");
                out.append("torn tail: ").append(inspector.tornTail().map(JournalProblem::toString).orElse("none")).append('\n');
                return out.toString();
            }
            out.append("records by type");
            if (from.isPresent() || to.isPresent()) {
                out.append(" from ").append(Describe.time(lo)).append(" to ").append(Describe.time(hi));
            }
            out.append(counts.isEmpty() ? ": none\n" : ":\n");
            counts.forEach((type, n) -> out.append(String.format(Locale.ROOT, "  %-22s %d%n", name(type), n)));
            out.append("torn tail: ").append(inspector.tornTail().map(JournalProblem::toString).orElse("none")).append('\n');
            return out.toString();
        } catch (EventLogException e) {
            throw new HistoryException(Reason.UNREADABLE, "the journal cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Checks every header, checksum, record, offset, time, index and snapshot.
     *
     * @throws HistoryException {@link Reason#UNREADABLE} when there is no journal to check
     */
    public static Verification verify(Path dir) {
        try (JournalInspector inspector = open(dir)) {
            List<JournalProblem> problems = inspector.verify();
            List<SegmentInfo> segments = inspector.segments();
            long records = segments.stream().mapToLong(SegmentInfo::recordCount).sum();
            if (problems.isEmpty()) {
                return new Verification(true, "sound: " + segments.size() + (segments.size() == 1 ? " segment, " : " segments, ") + records
                        + " records; every checksum, record, offset, time, index and snapshot checked\n");
            }
            StringBuilder out = new StringBuilder();
            out.append(problems.size()).append(problems.size() == 1 ? " problem:\n" : " problems:\n");
            problems.forEach(p -> out.append("  ").append(p).append('\n'));
            return new Verification(false, out.toString());
        } catch (EventLogException e) {
            throw new HistoryException(Reason.UNREADABLE, "the journal cannot be read: " + e.getMessage(), e);
        }
    }

    private static JournalInspector open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new HistoryException(Reason.UNREADABLE, "no journal directory at " + dir);
        }
        return JournalInspector.open(dir);
    }

    private static List<Snapshot> snapshots(LocalJournal journal) {
        List<Snapshot> found = new ArrayList<>();
        Optional<Snapshot> s = journal.snapshotAtOrBefore(journal.nextOffset() - 1);
        while (s.isPresent()) {
            found.addFirst(s.get());
            s = s.get().offset() == 0 ? Optional.empty() : journal.snapshotAtOrBefore(s.get().offset() - 1);
        }
        return found;
    }

    private static String name(EventType t) {
        StringBuilder b = new StringBuilder();
        for (String part : t.name().toLowerCase(Locale.ROOT).split("_")) {
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return b.toString();
    }

    private static String size(long bytes) {
        return bytes < 10 * 1024 ? bytes + " B" : bytes < 10L * 1024 * 1024 ? (bytes / 1024) + " KiB" : (bytes / (1024 * 1024)) + " MiB";
    }
}
