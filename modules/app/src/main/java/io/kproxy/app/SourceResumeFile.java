package io.kproxy.app;

import io.kproxy.events.ResourceKind;
import io.kproxy.source.kube.ResumePoint;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's {@link ResumePoint} between two runs of the agent on one node
 * (docs/operations.md, "Restart"): written to the journal directory when the agent stops with
 * every event its source queued in the journal, read and removed at the next start before
 * anything is appended. Removed at once, so that it serves only the run right after the one
 * that wrote it: a run that then crashes leaves none, and its successor lists. It is not used
 * when the journal came back shorter than it was when the file was written, or with any record
 * lost or cut (a relist then corrects the state, which a resumed watch would not), and every
 * field is checked: a file that fails a check is logged with the field and the reason, and the
 * kinds are listed. A few lines of {@code key=value}:
 *
 * <pre>
 * journalEnd=&lt;the journal's next offset when it was written&gt;
 * server=&lt;the API server's address&gt;
 * SERVICE=&lt;resourceVersion&gt;
 * ENDPOINT_SLICE=&lt;resourceVersion&gt;
 * </pre>
 */
final class SourceResumeFile {

    private static final Logger LOG = LoggerFactory.getLogger(SourceResumeFile.class);
    /** Its name in the journal directory (the journal ignores files it does not know, and removes {@code *.tmp} leftovers). */
    static final String NAME = "source-resume";
    private static final String JOURNAL_END = "journalEnd";
    private static final String SERVER = "server";

    private SourceResumeFile() {
    }

    /**
     * Reads and removes the file in {@code dir}.
     *
     * @param journalEnd    the journal's next offset now, before this run appends anything
     * @param journalIntact whether the journal opened without a lost or cut record
     * @return the point to resume at, or {@link ResumePoint#NONE} (no file, or one that cannot be used)
     */
    static ResumePoint take(Path dir, long journalEnd, boolean journalIntact) {
        Path file = dir.resolve(NAME);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
            Files.delete(file);
        } catch (NoSuchFileException e) {
            return ResumePoint.NONE;
        } catch (IOException e) {
            LOG.warn("decision=list-all reason=resume-file-unreadable file={} error=\"{}\"", file, e.getMessage());
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // reported above; the next stop writes it again
            }
            return ResumePoint.NONE;
        }
        try {
            ResumePoint point = parse(text, journalEnd, journalIntact);
            LOG.info("decision=resume-point server={} versions={}", point.server(), point.versions());
            return point;
        } catch (IllegalArgumentException e) {
            LOG.warn("decision=list-all reason=resume-file-refused file={} detail=\"{}\"", file, e.getMessage());
            return ResumePoint.NONE;
        }
    }

    static ResumePoint parse(String text, long journalEnd, boolean journalIntact) {
        Properties p = new Properties();
        try (Reader r = new StringReader(text)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not key=value lines: " + e.getMessage());
        }
        long writtenAt;
        try {
            writtenAt = Long.parseLong(p.getProperty(JOURNAL_END, ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(JOURNAL_END + ": not an offset: \"" + p.getProperty(JOURNAL_END, "") + "\"");
        }
        if (writtenAt < 0) {
            throw new IllegalArgumentException(JOURNAL_END + ": negative: " + writtenAt);
        }
        if (!journalIntact) {
            throw new IllegalArgumentException("the journal lost or cut records at this start; the relist corrects the state");
        }
        if (journalEnd < writtenAt) {
            throw new IllegalArgumentException(JOURNAL_END + ": the journal ends at " + journalEnd + ", before " + writtenAt
                    + " where it ended when the file was written");
        }
        String server = p.getProperty(SERVER, "");
        if (server.isEmpty()) {
            throw new IllegalArgumentException(SERVER + ": missing");
        }
        Map<ResourceKind, String> versions = new EnumMap<>(ResourceKind.class);
        for (String key : p.stringPropertyNames()) {
            if (key.equals(JOURNAL_END) || key.equals(SERVER)) {
                continue;
            }
            ResourceKind kind;
            try {
                kind = ResourceKind.valueOf(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(key + ": not a resource kind");
            }
            versions.put(kind, p.getProperty(key));
        }
        return new ResumePoint(server, versions);   // an empty version is refused there, naming the field
    }

    /**
     * Writes {@code point} to {@code dir} (through a temporary file, synced, then renamed), or
     * nothing when it holds no version. A failure is logged: the next start then lists.
     *
     * @param journalEnd the journal's next offset now, after the source stopped appending
     */
    static void write(Path dir, ResumePoint point, long journalEnd) {
        if (point.versions().isEmpty()) {
            LOG.info("decision=no-resume-point reason=\"the source stopped with events not appended, or before it watched\"");
            return;
        }
        Properties p = new Properties();
        p.setProperty(JOURNAL_END, Long.toString(journalEnd));
        p.setProperty(SERVER, point.server());
        point.versions().forEach((kind, version) -> p.setProperty(kind.name(), version));
        Path tmp = dir.resolve(NAME + ".tmp");
        try {
            StringWriter text = new StringWriter();
            p.store(text, "kproxy: where the source's watches stopped; read and removed at the next start (docs/operations.md, \"Restart\")");
            Files.writeString(tmp, text.toString(), StandardCharsets.UTF_8);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, dir.resolve(NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            LOG.info("decision=resume-point-written journal_end={} versions={}", journalEnd, point.versions());
        } catch (IOException e) {
            LOG.warn("decision=no-resume-point file={} error=\"{}\"", dir.resolve(NAME), e.getMessage());
        }
    }
}
