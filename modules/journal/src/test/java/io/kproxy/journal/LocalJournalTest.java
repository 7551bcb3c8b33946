package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.Envelope;
import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.spi.EventLog.Draft;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LocalJournalTest {

    @TempDir
    Path tmp;

    private JournalOptions small(Path dir, MutableClock clock) {
        return JournalOptions.defaults(dir).withSegmentBytes(4096).withIndexIntervalBytes(512).withFsyncWindow(Duration.ZERO).withClock(clock);
    }

    @Test
    void appendedRecordsReadBackInOrderWithTheirOffsets() {
        MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
        try (LocalJournal j = LocalJournal.open(small(tmp.resolve("j"), clock))) {
            assertThat(j.append("src", Fixtures.event(0)).join()).isEqualTo(0L);
            assertThat(j.append(Fixtures.drafts(1, 50)).join()).containsExactlyElementsOf(range(1, 51));
            assertThat(j.append(List.of()).join()).isEmpty();
            List<Envelope> all = j.read(0, 1000);
            assertThat(all).hasSize(51);
            for (Envelope e : all) {
                assertThat(e.event()).isEqualTo(Fixtures.event(e.offset()));
                assertThat(e.recordedAt()).isEqualTo(clock.instant());
            }
            assertThat(all.getFirst().source()).isEqualTo("src");
            assertThat(j.read(51, 10)).isEmpty();
            assertThat(j.read(49, 10)).extracting(Envelope::offset).containsExactly(49L, 50L);
            assertThat(j.read(10, 0)).isEmpty();
            assertThat(j.nextOffset()).isEqualTo(51);
            assertThat(j.firstOffset()).isZero();
            assertThat(JournalInspector.of(j).segments()).hasSize(2); // an append never straddles two segments
            for (long o = 51; o < 80; o++) {
                assertThat(j.append("src", Fixtures.event(o)).join()).isEqualTo(o);
            }
            assertThat(JournalInspector.of(j).segments().size()).isGreaterThan(3); // 4 KiB segments roll often
            assertThat(j.read(0, 1000)).extracting(Envelope::offset).containsExactlyElementsOf(range(0, 80));
        }
    }

    /** The local journal must behave exactly as the in-memory reference, before and after a reopen. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void behavesLikeTheMemoryLog(long seed) {
        Random rnd = new Random(seed);
        MutableClock clock = new MutableClock(Instant.parse("2025-03-01T10:00:00Z"));
        Path dir = tmp.resolve("ref-" + seed);
        JournalOptions opts = small(dir, clock).withSegmentBytes(2048 + rnd.nextInt(8192)).withIndexIntervalBytes(64 + rnd.nextInt(2048));
        MemoryEventLog ref = new MemoryEventLog(clock);
        long i = 0;
        try (LocalJournal j = LocalJournal.open(opts)) {
            i = appendBoth(rnd, clock, ref, j, i, 150);
            compare(rnd, seed, ref, j);
        }
        try (LocalJournal j = LocalJournal.open(opts)) {
            assertThat(j.openProblems()).as("seed %d", seed).isEmpty();
            compare(rnd, seed, ref, j);
            clock.set(Instant.parse("2025-02-01T00:00:00Z")); // the clock steps back: stamps must not
            i = appendBoth(rnd, clock, ref, j, i, 60);
            compare(rnd, seed, ref, j);
        }
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            compare(rnd, seed, ref, ro);
        }
    }

    private static long appendBoth(Random rnd, MutableClock clock, MemoryEventLog ref, LocalJournal j, long i, int appends) {
        for (int a = 0; a < appends; a++) {
            if (rnd.nextInt(4) == 0) {
                clock.advance(Duration.ofMillis(rnd.nextInt(5000)));
            }
            int n = 1 + (rnd.nextInt(5) == 0 ? rnd.nextInt(20) : 0);
            List<Draft> d = Fixtures.drafts(i, n);
            List<Long> want = ref.append(d).join();
            assertThat(j.append(d).join()).isEqualTo(want);
            i += n;
        }
        return i;
    }

    private static void compare(Random rnd, long seed, MemoryEventLog ref, LocalJournal j) {
        assertThat(j.nextOffset()).isEqualTo(ref.nextOffset());
        assertThat(j.read(0, Integer.MAX_VALUE)).as("seed %d", seed).isEqualTo(ref.read(0, Integer.MAX_VALUE));
        for (int k = 0; k < 50; k++) {
            long from = rnd.nextLong(ref.nextOffset() + 5);
            int max = 1 + rnd.nextInt(40);
            assertThat(j.read(from, max)).as("seed %d read(%d,%d)", seed, from, max).isEqualTo(ref.read(from, max));
        }
        List<Envelope> all = ref.read(0, Integer.MAX_VALUE);
        Instant lo = all.getFirst().recordedAt().minusSeconds(10);
        Instant hi = all.getLast().recordedAt().plusSeconds(10);
        for (int k = 0; k < 60; k++) {
            Instant t = switch (k % 3) {
                case 0 -> all.get(rnd.nextInt(all.size())).recordedAt(); // exactly a record's time
                case 1 -> all.get(rnd.nextInt(all.size())).recordedAt().plusNanos(1);
                default -> lo.plusMillis(rnd.nextLong(Duration.between(lo, hi).toMillis()));
            };
            assertThat(j.offsetAt(t)).as("seed %d offsetAt(%s)", seed, t).isEqualTo(ref.offsetAt(t));
        }
        assertThat(j.offsetAt(hi)).isEmpty();
        assertThat(j.offsetAt(lo)).hasValue(0);
    }

    @Test
    void filesAndDirectoriesArePrivateToTheOwner() throws Exception {
        Path dir = tmp.resolve("private");
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
        try (LocalJournal j = LocalJournal.open(small(dir, clock))) {
            j.append(Fixtures.drafts(0, 40)).join();
            j.storeSnapshot(10, new byte[] {1, 2, 3});
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.skip(1).toList()) {
                String want = Files.isDirectory(p) ? "rwx------" : "rw-------";
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).as(p.toString()).isEqualTo(want);
            }
        }
    }

    @Test
    void closedAndReadOnlyJournalsRefuseWithTypedErrors() {
        Path dir = tmp.resolve("closed");
        MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
        LocalJournal j = LocalJournal.open(small(dir, clock));
        j.append(Fixtures.drafts(0, 3)).join();
        assertThatThrownBy(() -> j.storeSnapshot(3, new byte[0])).isInstanceOf(IllegalArgumentException.class);
        j.close();
        j.close(); // idempotent
        assertThatThrownBy(() -> j.append(Fixtures.drafts(3, 1)).join()).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(EventLogException.class).extracting(t -> ((EventLogException) t).kind()).isEqualTo(Kind.CLOSED);
        assertThatThrownBy(() -> j.read(0, 1)).isInstanceOf(EventLogException.class).extracting(t -> ((EventLogException) t).kind())
                .isEqualTo(Kind.CLOSED);
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            assertThat(ro.read(0, 10)).hasSize(3);
            assertThatThrownBy(() -> ro.append(Fixtures.drafts(3, 1)).join()).cause()
                    .extracting(t -> ((EventLogException) t).kind()).isEqualTo(Kind.READ_ONLY);
            assertThatThrownBy(() -> ro.storeSnapshot(1, new byte[0])).isInstanceOf(EventLogException.class)
                    .extracting(t -> ((EventLogException) t).kind()).isEqualTo(Kind.READ_ONLY);
            assertThat(ro.tornTail()).isEmpty();
        }
        assertThatThrownBy(() -> LocalJournal.openReadOnly(tmp.resolve("absent"))).isInstanceOf(EventLogException.class)
                .hasMessageContaining("no journal directory");
    }

    static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long o = from; o < to; o++) {
            out.add(o);
        }
        return out;
    }
}
