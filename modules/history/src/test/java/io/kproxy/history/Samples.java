package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
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
}
