package io.kproxy.sample;

import io.kproxy.history.Describe;
import io.kproxy.sample.simulator.SampleClusterGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The recorded sample histories under {@code events/samples/} (see its README): generated, not
 * hand-written, so that they can be regenerated when the record format or the engine changes.
 * The generator is a tool, not part of the agent: {@code kproxy samples generate} wires it.
 * Stateless and thread-safe; blocks while generating; never returns null.
 */
public final class SampleHistories {

    /** The name of the one sample there is: an hour of a 300-Service cluster (events/samples/cluster-hour). */
    public static final String CLUSTER_HOUR = "cluster-hour";

    /**
     * A documented moment of a sample: the record at {@code offset}, when it was recorded, its
     * event type and object, and what it means in the story.
     */
    public record Moment(long offset, java.time.Instant at, String eventType, String object, String what) {

        /** The row of events/samples/README.md's table: {@code | time | #offset | event | object | what |}. */
        public String row() {
            return "| " + Describe.time(at) + " | #" + offset + " | " + eventType + " | " + object + " | " + what.strip() + " |";
        }
    }

    private SampleHistories() {
    }

    /**
     * Writes {@value #CLUSTER_HOUR} into {@code dir} (which must not exist or be empty): the
     * scripted hour recorded by the real engine in nftables mode on virtual time, with its
     * snapshots, in 512 KiB segments.
     *
     * @return the moments events/samples/README.md documents, in offset order
     * @throws IllegalArgumentException when {@code dir} is not empty
     */
    public static List<Moment> generateClusterHour(Path dir) {
        return SampleClusterGenerator.generate(dir).stream()
                .map(m -> new Moment(m.offset(), m.at(), Describe.type(m.record().event()), Describe.object(m.record().event()), m.what()))
                .toList();
    }

    /**
     * Deletes the journal files in {@code dir} (segments, indexes, snapshots, the lock, torn tails,
     * quarantined files), keeping anything else (a README): what {@code kproxy samples generate
     * --force} does before writing a sample again. Nothing happens when {@code dir} does not exist.
     */
    public static void clearJournal(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                String n = p.getFileName().toString();
                if (n.endsWith(".seg") || n.endsWith(".idx") || n.endsWith(".snap") || n.equals("journal.lock") || n.endsWith(".torn")
                        || (n.equals("snapshots") || n.equals("quarantine")) && Files.isDirectory(p)) {
                    Files.delete(p);
                }
            }
        }
    }
}
