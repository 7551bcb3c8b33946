package io.kproxy.ui;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.history.History;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.testkit.Directories;
import io.kproxy.testkit.SettableClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The journals the ui tests look at: events/samples/cluster-hour (the 03:12 outage of
 * shop/checkout, events/samples/README.md), a copy of its first quarter hour with a rollback
 * pinned to the state before the bad edit, and a copy with a flipped bit.
 */
final class Journals {

    /** events/samples/cluster-hour, from the module directory the tests run in. */
    static final Path CLUSTER_HOUR = Path.of("../../events/samples/cluster-hour");
    /** The last record before the bad edit of shop/checkout (#853, 03:12:04.500). */
    static final long BEFORE_EDIT = 852;
    static final Instant PINNED_AT = Instant.parse("2026-11-22T03:15:00Z");
    static final Instant UNPINNED_AT = Instant.parse("2026-11-22T03:20:00Z");
    static final String PIN_REASON = "roll back the checkout targetPort edit";

    private Journals() {
    }

    /** A page over {@code journal} on a free loopback port, its index built. */
    static UiServer serve(Path journal) throws IOException, InterruptedException {
        UiServer server = UiServer.forJournal(journal, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        if (!server.awaitIndexed(Duration.ofSeconds(60))) {
            server.close();
            throw new IllegalStateException("the index of " + journal + " was not built in 60 s");
        }
        return server;
    }

    /**
     * The sample's records up to 03:15 with their times, then what {@code kproxy rollback --to
     * 03:12:04Z} records: {@code DataplanePinned} to #852 and the full sync of that state (its
     * real hash), and at 03:20 the resume. (The agent journals on meanwhile; this history stops.)
     */
    static Path pinned(Path dir) {
        List<Envelope> records;
        try (LocalJournal sample = LocalJournal.openReadOnly(CLUSTER_HOUR)) {
            records = sample.read(0, Integer.MAX_VALUE).stream().filter(e -> e.recordedAt().isBefore(PINNED_AT)).toList();
        }
        SettableClock clock = new SettableClock(records.getFirst().recordedAt());
        try (LocalJournal j = LocalJournal.open(JournalOptions.defaults(dir).withClock(clock))) {
            long generation = 0;
            for (Envelope e : records) {
                clock.set(e.recordedAt());
                j.append(e.source(), e.event()).join();
                if (e.event() instanceof SyncApplied s) {
                    generation = s.generation();
                }
            }
            String hash;
            try (History h = History.of(j)) {
                hash = h.render(h.atOffset(BEFORE_EDIT), Optional.of("nftables")).hash();
            }
            clock.set(PINNED_AT);
            j.append("admin", new DataplanePinned(BEFORE_EDIT, PIN_REASON)).join();
            clock.set(PINNED_AT.plusMillis(180));
            j.append("engine", new SyncApplied("nftables", generation + 1, BEFORE_EDIT, SyncKind.FULL, hash, Duration.ofMillis(9))).join();
            clock.set(UNPINNED_AT);
            j.append("admin", new DataplaneUnpinned("checkout fixed upstream")).join();
        }
        return dir;
    }

    /** A copy of the sample with one bit flipped at byte 40,000 of its middle segment (issue 18's damage). */
    static Path damaged(Path dir) {
        Directories.copy(CLUSTER_HOUR, dir);
        Path seg = dir.resolve("00000000000000000699.seg");
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, 40_000);
            b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
            ch.write(b, 40_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }
}
