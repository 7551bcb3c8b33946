package io.kproxy.sample.simulator;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.Snapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The committed sample history and helpers to read and measure journals in the generator's tests. */
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

    /** Total bytes of the files under {@code dir}. */
    public static long bytes(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
