package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.local.RecordFrame;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import io.kproxy.model.Json;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.Disposable;
import reactor.test.StepVerifier;

/**
 * Bulk reads (frames checked on the caller, records decoded in batches on the replay decoders)
 * return exactly what reading the records one at a time returns: the same envelopes and offsets,
 * and at damage the same error, after the same records.
 */
class BatchReadTest {

    @TempDir
    Path tmp;

    private static JournalOptions options(Path dir, int segmentBytes, int indexBytes) {
        return JournalOptions.defaults(dir).withSegmentBytes(segmentBytes).withIndexIntervalBytes(indexBytes)
                .withFsyncWindow(Duration.ZERO).withClock(new MutableClock(Instant.parse("2025-07-01T00:00:00Z")));
    }

    /** Every record read alone (the caller-only path, one record per call). */
    private static List<Envelope> oneByOne(LocalJournal j, long from, long to) {
        List<Envelope> out = new ArrayList<>();
        for (long o = from; o < to; o++) {
            out.addAll(j.read(o, 1));
        }
        return out;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void aBulkReadEqualsReadingOneRecordAtATime(long seed) {
        Random rnd = new Random(seed);
        System.out.println("BatchReadTest seed=" + seed);
        int records = 1_500 + rnd.nextInt(1_500);
        int segmentBytes = 8_192 << rnd.nextInt(8); // 8 KiB .. 1 MiB: a batch spans many segments or one
        try (LocalJournal j = LocalJournal.open(options(tmp.resolve("j" + seed), segmentBytes, 512 << rnd.nextInt(6)))) {
            for (int done = 0; done < records; ) {
                int n = 1 + rnd.nextInt(120);
                j.append(Fixtures.drafts(done, n)).join();
                done += n;
            }
            long end = j.nextOffset();
            List<Envelope> single = oneByOne(j, 0, end);
            assertThat(single).as("seed %d", seed).hasSize((int) end);
            for (Envelope e : single) {
                assertThat(e.event()).as("seed %d offset %d", seed, e.offset()).isEqualTo(Fixtures.event(e.offset()));
            }
            assertThat(j.read(0, Integer.MAX_VALUE)).as("seed %d: everything", seed).isEqualTo(single);
            for (int k = 0; k < 40; k++) {
                int from = rnd.nextInt((int) end + 10);
                int max = rnd.nextBoolean() ? 1 + rnd.nextInt(200) : 1 + rnd.nextInt(5_000);
                List<Envelope> want = single.subList(Math.min(from, (int) end), (int) Math.min(end, (long) from + max));
                assertThat(j.read(from, max)).as("seed %d: read(%d, %d)", seed, from, max).isEqualTo(want);
            }
            // sequential pages, as a replay reads them (each page starts where the last one ended)
            List<Envelope> paged = new ArrayList<>();
            int page = 64 + rnd.nextInt(3_000);
            for (long from = 0; from < end; from = paged.getLast().offset() + 1) {
                paged.addAll(j.read(from, page));
            }
            assertThat(paged).as("seed %d: pages of %d", seed, page).isEqualTo(single);
            StepVerifier.create(j.tail(0).take(end)).expectNextSequence(single).verifyComplete();
        }
    }

    @Test
    void recordsLargerThanTheArenaReadBackInTheirPlace() {
        try (LocalJournal j = LocalJournal.open(options(tmp.resolve("large"), 8 << 20, 64 << 10))) {
            List<EventLog.Draft> drafts = new ArrayList<>(Fixtures.drafts(0, 300));
            drafts.set(100, new EventLog.Draft("test/big", big(100, 1_500_000)));
            drafts.set(101, new EventLog.Draft("test/big", big(101, 3_000_000)));
            drafts.set(250, new EventLog.Draft("test/big", big(250, 900_000)));
            j.append(drafts).join();
            List<Envelope> all = j.read(0, Integer.MAX_VALUE);
            assertThat(all).isEqualTo(oneByOne(j, 0, 300));
            assertThat(all).extracting(Envelope::event).containsExactlyElementsOf(drafts.stream().map(EventLog.Draft::event).toList());
            assertThat(j.read(95, 200)).isEqualTo(all.subList(95, 295));
        }
    }

    /** An EndpointSlice observation carrying an annotation of {@code bytes} characters. */
    private static ClusterEvent big(long i, int bytes) {
        EndpointSliceObserved o = (EndpointSliceObserved) Fixtures.event(i);
        Json.Obj meta = o.object().object("metadata").with("annotations", Json.obj("note", Json.of("x".repeat(bytes))));
        return new EndpointSliceObserved(o.slice(), o.resourceVersion(), o.object().with("metadata", meta));
    }

    @Test
    void anUndecodableRecordInTheMiddleOfABatchIsTheSameErrorAfterTheSameRecords() throws Exception {
        Path dir = tmp.resolve("undecodable");
        try (LocalJournal j = LocalJournal.open(options(dir, 256 << 10, 4096))) {
            j.append(Fixtures.drafts(0, 1_000)).join();
            j.append(Fixtures.drafts(1_000, 1_000)).join();
        }
        assertThat(JournalFiles.frames(JournalFiles.segments(dir).get(1))).hasSizeGreaterThan(137);
        long bad = overwriteWithGarbage(dir, 1, 137);
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            String alone = catchThrowableOfType(EventLogException.class, () -> ro.read(bad, 1)).getMessage();
            assertThat(alone).contains("offset " + bad).contains("cannot be decoded");
            EventLogException bulk = catchThrowableOfType(EventLogException.class, () -> ro.read(0, Integer.MAX_VALUE));
            assertThat(bulk.kind()).isEqualTo(Kind.CORRUPT);
            assertThat(bulk.getMessage()).isEqualTo(alone);
            assertThat(catchThrowableOfType(EventLogException.class, () -> ro.read(bad - 500, 1_000)).getMessage()).isEqualTo(alone);
            assertThat(ro.read(0, (int) bad)).isEqualTo(oneByOne(ro, 0, bad));
            assertThat(ro.read(bad + 1, 2_000)).isEqualTo(oneByOne(ro, bad + 1, ro.nextOffset()));
            // a live tail delivers every record before it, then fails with the same error
            StepVerifier.create(ro.tail(0)).expectNextCount(bad)
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(EventLogException.class).hasMessage(alone)).verify(Duration.ofSeconds(30));
        }
    }

    @Test
    void anUndecodableRecordInAnEarlierArenaOfALongReadStopsIt() throws Exception {
        Path dir = tmp.resolve("long");
        try (LocalJournal j = LocalJournal.open(options(dir, 1 << 20, 64 << 10))) {
            for (int i = 0; i < 16; i++) {
                j.append(Fixtures.drafts(i * 1_000L, 1_000)).join();
            }
        }
        assertThat(Files.size(JournalFiles.segments(dir).getFirst())).as("a read spans several arenas").isGreaterThan(700_000);
        long bad = overwriteWithGarbage(dir, 1, 100);
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            String alone = catchThrowableOfType(EventLogException.class, () -> ro.read(bad, 1)).getMessage();
            assertThatThrownBy(() -> ro.read(0, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class).hasMessage(alone);
            // the live tail's read: everything before the damage, then (from there) the error
            List<Envelope> before = ro.reader().readUpToDamage(0, Integer.MAX_VALUE);
            assertThat(before).hasSize((int) bad).isEqualTo(ro.read(0, (int) bad));
            assertThatThrownBy(() -> ro.reader().readUpToDamage(bad, Integer.MAX_VALUE)).hasMessage(alone);
            assertThat(ro.read(bad + 1, Integer.MAX_VALUE)).hasSize((int) (ro.nextOffset() - bad - 1));
        }
    }

    @Test
    void anUndecodableRecordBeforeFrameDamageIsTheErrorReported() throws Exception {
        Path dir = tmp.resolve("both");
        try (LocalJournal j = LocalJournal.open(options(dir, 256 << 10, 4096))) {
            for (int i = 0; i < 6; i++) {
                j.append(Fixtures.drafts(i * 500L, 500)).join();
            }
        }
        assertThat(JournalFiles.segments(dir)).as("segment 1 is sealed: damage there is not a torn tail").hasSizeGreaterThan(2);
        long bad = overwriteWithGarbage(dir, 1, 10);
        Path seg = JournalFiles.segments(dir).get(1);
        List<long[]> frames = JournalFiles.frames(seg);
        assertThat(frames).hasSizeGreaterThan(200);
        int laterIndex = frames.size() - 20;
        long[] later = frames.get(laterIndex);
        JournalFiles.flipBit(seg, later[0] + RecordFrame.HEADER + 40, 3); // checksum damage further on, same batch
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            String alone = catchThrowableOfType(EventLogException.class, () -> ro.read(bad, 1)).getMessage();
            assertThatThrownBy(() -> ro.read(0, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class).hasMessage(alone);
            long damaged = JournalFiles.base(seg) + laterIndex;
            String frame = catchThrowableOfType(EventLogException.class, () -> ro.read(damaged, 1)).getMessage();
            assertThat(frame).contains("is damaged at byte " + later[0]);
            assertThatThrownBy(() -> ro.read(bad + 1, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class).hasMessage(frame);
            assertThat(ro.read(bad + 1, (int) (damaged - bad - 1))).isEqualTo(oneByOne(ro, bad + 1, damaged));
        }
    }

    @Test
    void aTornTailEndsABulkReadWhereItEndsOneByOneReads() throws Exception {
        Path dir = tmp.resolve("torn");
        try (LocalJournal j = LocalJournal.open(options(dir, 1 << 20, 4096))) {
            for (int i = 0; i < 6; i++) {
                j.append(Fixtures.drafts(i * 300L, 300)).join();
            }
        }
        Path last = JournalFiles.segments(dir).getLast();
        List<long[]> frames = JournalFiles.frames(last);
        long[] cut = frames.get(frames.size() - 250);
        JournalFiles.truncate(last, cut[0] + 21); // mid-record: a torn write
        long firstLost = JournalFiles.base(last) + frames.size() - 250;
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            assertThat(ro.tornTail()).isPresent();
            assertThat(ro.nextOffset()).isEqualTo(firstLost);
            List<Envelope> all = ro.read(0, Integer.MAX_VALUE);
            assertThat(all).isEqualTo(oneByOne(ro, 0, firstLost)).hasSize((int) firstLost);
            assertThat(ro.read(firstLost - 100, 1_000)).isEqualTo(all.subList((int) firstLost - 100, (int) firstLost));
        }
        try (LocalJournal rw = LocalJournal.open(options(dir, 1 << 20, 4096))) {
            assertThat(rw.read(0, Integer.MAX_VALUE)).hasSize((int) firstLost).allSatisfy(e -> assertThat(e.event()).isEqualTo(Fixtures.event(e.offset())));
            rw.append(Fixtures.drafts(firstLost, 200)).join(); // the cut offsets are reused by new records
            assertThat(rw.read(firstLost - 10, 1_000)).extracting(Envelope::offset).containsExactlyElementsOf(
                    LongStream.range(firstLost - 10, firstLost + 200).boxed().toList());
        }
    }

    @Test
    void bulkReadsAndATailWhileAnotherThreadAppends() throws Exception {
        int total = 6_000;
        long seed = System.nanoTime();
        System.out.println("BatchReadTest concurrent seed=" + seed);
        JournalOptions o = JournalOptions.defaults(tmp.resolve("live")).withSegmentBytes(64 << 10).withFsyncWindow(Duration.ofMillis(1));
        try (LocalJournal j = LocalJournal.open(o)) {
            Thread writer = Thread.ofPlatform().name("appender").start(() -> {
                Random rnd = new Random(seed);
                for (int done = 0; done < total; ) {
                    int n = Math.min(total - done, 1 + rnd.nextInt(200));
                    j.append(Fixtures.drafts(done, n)).join();
                    done += n;
                }
            });
            List<Envelope> tailed = new CopyOnWriteArrayList<>();
            Disposable tail = j.tail(0).subscribe(tailed::add);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            AtomicInteger reads = new AtomicInteger();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                long readerSeed = seed + r;
                readers.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                    Random rnd = new Random(readerSeed);
                    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    try {
                        while (writer.isAlive() && System.nanoTime() < deadline) {
                            long before = j.nextOffset();
                            long from = rnd.nextInt((int) before + 1);
                            int max = 1 + rnd.nextInt(3_000);
                            List<Envelope> got = j.read(from, max);
                            assertThat(got.size()).as("read(%d, %d) with %d durable", from, max, before)
                                    .isBetween((int) Math.min(max, before - from), max);
                            for (int k = 0; k < got.size(); k++) {
                                Envelope e = got.get(k);
                                assertThat(e.offset()).isEqualTo(from + k);
                                assertThat(e.event()).isEqualTo(Fixtures.event(e.offset()));
                            }
                            reads.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            writer.join(60_000);
            for (Thread t : readers) {
                t.join(60_000);
            }
            assertThat(failures).as("seed %d", seed).isEmpty();
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (tailed.size() < total && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            tail.dispose();
            assertThat(tailed).as("seed %d", seed).hasSize(total);
            assertThat(tailed).isEqualTo(j.read(0, Integer.MAX_VALUE));
            System.out.println("concurrent bulk reads checked: " + reads.get());
        }
        List<Thread> helpers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("kproxy-replay-decoder-")).toList();
        assertThat(helpers).hasSizeLessThanOrEqualTo(ReplayDecoder.parallelism() - 1).allSatisfy(t -> assertThat(t.isDaemon()).isTrue());
        if (ReplayDecoder.parallelism() > 1) {
            assertThat(helpers).as("bulk reads used the helper threads").isNotEmpty();
        }
    }

    /** Replaces the record {@code index} of segment {@code segment} with garbage under a sound checksum; returns its offset. */
    static long overwriteWithGarbage(Path dir, int segment, int index) throws Exception {
        Path seg = JournalFiles.segments(dir).get(segment);
        long[] frame = JournalFiles.frames(seg).get(index);
        int len = (int) (frame[1] - frame[0] - RecordFrame.HEADER);
        byte[] garbage = new byte[len];
        new Random(index).nextBytes(garbage);
        garbage[0] = 1; // the right format version and a known type, then nonsense
        garbage[1] = 3;
        ByteBuffer b = ByteBuffer.allocate(len + RecordFrame.HEADER);
        RecordFrame.put(b, garbage);
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
            ch.write(b.flip(), frame[0]);
        }
        return JournalFiles.base(seg) + index;
    }
}
