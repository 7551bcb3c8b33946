package io.kproxy.history;

import io.kproxy.events.Envelope;
import io.kproxy.journal.LocalJournal;
import java.nio.file.Path;
import java.util.List;

/** The committed sample history and a helper to read journals in tests (testkit's {@code Directories} copies them). */
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
}
