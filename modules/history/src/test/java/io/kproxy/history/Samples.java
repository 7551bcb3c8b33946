package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The committed sample history and helpers to read and copy journals in tests. */
public final class Samples {

    /** events/samples/cluster-hour, from the module directory surefire runs in. */
    public static final Path CLUSTER_HOUR = Path.of("../../events/samples/cluster-hour");

    private Samples() {
    }

    /** Every record of the journal in {@code dir}, read-only. */
    public static List<Envelope> records(Path dir) {
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            return j.read(0, Integer.MAX_VALUE);
        }
    }

    /** Every snapshot of the journal in {@code dir}, oldest first. */
    public static List<Snapshot> snapshots(Path dir) {
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            List<Snapshot> out = new ArrayList<>();
            Optional<Snapshot> s = j.snapshotAtOrBefore(j.nextOffset() - 1);
            while (s.isPresent()) {
                out.addFirst(s.get());
                s = s.get().offset() == 0 ? Optional.empty() : j.snapshotAtOrBefore(s.get().offset() - 1);
            }
            return out;
        }
    }

    /** Copies a journal directory (segments, indexes, snapshots) to {@code to}. */
    public static Path copy(Path from, Path to) {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.sorted().toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the journal files in {@code dir} (segments, indexes, snapshots), keeping anything else. */
    static void clearJournal(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                String n = p.getFileName().toString();
                if (n.endsWith(".seg") || n.endsWith(".idx") || n.endsWith(".snap") || n.equals("snapshots") && Files.isDirectory(p)) {
                    Files.delete(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Total bytes of the files under {@code dir}. */
    static long bytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
