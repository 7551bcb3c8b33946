package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.kproxy.events.Envelope;
import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.JournalProblem.Kind;
import io.kproxy.journal.spi.EventLogException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;

/**
 * Random truncations and bit flips, in the tail and in sealed segments. Invariants: no damaged
 * record is ever returned; a torn tail is cut at the first damaged record and nothing after it
 * survives; damage in a sealed segment is an error naming the segment and the offsets, and
 * reading stops there instead of skipping.
 */
class DamageTest {

    @TempDir
    static Path shared;

    @TempDir
    Path tmp;

    static Path pristine;
    static List<Envelope> originals;

    @BeforeAll
    static void writeAJournal() {
        pristine = shared.resolve("pristine");
        MutableClock clock = new MutableClock(Instant.parse("2025-05-01T00:00:00Z"));
        try (LocalJournal j = LocalJournal.open(options(pristine, clock))) {
            for (int i = 0; i < 300; i += 5) {
                clock.advance(Duration.ofSeconds(1));
                j.append(Fixtures.drafts(i, 5)).join();
            }
            originals = j.read(0, Integer.MAX_VALUE);
        }
        assertThat(JournalFiles.segments(pristine).size()).isGreaterThan(5);
    }

    static JournalOptions options(Path dir, MutableClock clock) {
        return JournalOptions.defaults(dir).withSegmentBytes(6000).withIndexIntervalBytes(700).withFsyncWindow(Duration.ZERO).withClock(clock);
    }

    private Path copy(String name) {
        Path d = tmp.resolve(name);
        JournalFiles.copyDir(pristine, d);
        return d;
    }

    private static JournalOptions reopen(Path dir) {
        return options(dir, new MutableClock(Instant.parse("2025-06-01T00:00:00Z")));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18})
    void aTruncatedTailIsCutAtTheLastCompleteRecord(long seed) throws IOException {
        Random rnd = new Random(seed);
        Path dir = copy("trunc");
        Path last = JournalFiles.segments(dir).getLast();
        long base = JournalFiles.base(last);
        List<long[]> frames = JournalFiles.frames(last);
        long cut = rnd.nextLong(Files.size(last));
        JournalFiles.truncate(last, cut);
        long complete = frames.stream().filter(f -> f[1] <= cut).count();
        try (LocalJournal j = LocalJournal.open(reopen(dir))) {
            long expectedNext = base + (cut < JournalFiles.SEGMENT_HEADER ? 0 : complete);
            assertThat(j.nextOffset()).as("seed %d cut %d", seed, cut).isEqualTo(expectedNext);
            boolean onBoundary = cut == JournalFiles.SEGMENT_HEADER || frames.stream().anyMatch(f -> f[1] == cut);
            assertThat(j.tornTail().isPresent()).as("seed %d cut %d", seed, cut).isEqualTo(!onBoundary);
            assertSame(j.read(0, Integer.MAX_VALUE), 0, (int) expectedNext);
            assertThat(JournalInspector.of(j).verify()).isEmpty();
            assertThat(j.append("after", Fixtures.event(999)).join()).isEqualTo(expectedNext);
        }
    }

    /**
     * A flipped bit in the active segment: in its last frame it is indistinguishable from a torn
     * write and is cut; anywhere before (a sound frame follows, or the header of a segment that
     * holds records) it is corruption: never cut, the lost offsets refused, never reused.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {21, 22, 23, 24, 25, 26, 27, 28, 29, 30})
    void aBitFlipInTheTailIsCutOnlyInTheLastFrameAndOtherwiseKeptAsDamage(long seed) throws IOException {
        Random rnd = new Random(seed);
        Path dir = copy("flip-tail");
        Path last = JournalFiles.segments(dir).getLast();
        long base = JournalFiles.base(last);
        List<long[]> frames = JournalFiles.frames(last);
        long size = Files.size(last);
        // half the seeds flip in the last frame (a torn write), half anywhere before it
        long lastFrame = frames.getLast()[0];
        long at = seed % 2 == 0 ? lastFrame + rnd.nextLong(size - lastFrame) : rnd.nextLong(lastFrame);
        byte[] before = Files.readAllBytes(last);
        JournalFiles.flipBit(last, at, rnd.nextInt(8));
        int k = at < JournalFiles.SEGMENT_HEADER ? 0 : (int) frames.stream().filter(f -> f[1] <= at).count();
        long cutFrom = at < JournalFiles.SEGMENT_HEADER ? 0 : frames.get(k)[0];
        boolean torn = k == frames.size() - 1 && at >= JournalFiles.SEGMENT_HEADER;
        long lostTo;
        try (LocalJournal j = LocalJournal.open(reopen(dir))) {
            if (torn) {
                JournalProblem p = j.tornTail().orElseThrow();
                assertThat(p.firstOffset()).as("seed %d flip at %d", seed, at).isEqualTo(base + k);
                assertThat(p.position()).isEqualTo(cutFrom);
                assertThat(j.nextOffset()).isEqualTo(base + k);
                assertThat(JournalInspector.of(j).verify()).isEmpty();
                lostTo = base + k - 1;
            } else {
                assertThat(j.tornTail()).as("seed %d flip at %d", seed, at).isEmpty();
                JournalProblem p = j.openProblems().stream().filter(q -> q.firstOffset() == base + k).findFirst().orElseThrow();
                assertThat(p.kind()).isIn(Kind.DAMAGED_RECORD, Kind.BAD_HEADER);
                long soundEnd = at < JournalFiles.SEGMENT_HEADER ? JournalFiles.SEGMENT_HEADER : cutFrom;
                assertThat(p.lastOffset()).isEqualTo(base + k + Math.max(1, (size - soundEnd) / 13) - 1);
                lostTo = p.lastOffset();
                assertThat(j.nextOffset()).as("a lost offset is never given again").isEqualTo(lostTo + 1);
                assertThat(Files.readAllBytes(last)).as("the damaged segment is kept as it is").hasSize((int) size);
                assertThat(JournalInspector.of(j).verify()).extracting(JournalProblem::firstOffset).contains(base + k);
                assertThatThrownBy(() -> j.read(base + k, 1)).isInstanceOfSatisfying(EventLogException.class, e -> {
                    assertThat(e.kind()).isEqualTo(EventLogException.Kind.CORRUPT);
                    assertThat(e.lostFirst()).isEqualTo(base + k);
                    assertThat(e.lostLast()).isEqualTo(p.lastOffset());
                    assertThat(e.getMessage()).contains(base + k + ".." + p.lastOffset());
                });
            }
            assertSame(j.read(0, (int) (base + k)), 0, (int) (base + k));
            assertThat(j.append("after", Fixtures.event(999)).join()).isEqualTo(lostTo + 1);
        }
        try (Stream<Path> q = Files.list(dir.resolve("quarantine"))) {
            Path saved = q.findFirst().orElseThrow();
            byte[] kept = Files.readAllBytes(saved);
            long from = torn ? cutFrom : at < JournalFiles.SEGMENT_HEADER ? JournalFiles.SEGMENT_HEADER : cutFrom;
            assertThat(kept.length).isEqualTo(size - from);
            byte[] expect = Arrays.copyOfRange(before, (int) from, (int) size);
            if (at >= from) {
                expect[(int) (at - from)] = kept[(int) (at - from)]; // the saved bytes are the damaged ones
            }
            assertThat(kept).isEqualTo(expect);
        }
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.verify().isEmpty()).as("a restarted open reports the damage again").isEqualTo(torn);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {31, 32, 33, 34, 35, 36, 37, 38})
    void aBitFlipInASealedSegmentIsAnErrorNamingSegmentAndOffsets(long seed) {
        Random rnd = new Random(seed);
        Path dir = copy("flip-sealed");
        List<Path> segs = JournalFiles.segments(dir);
        int s = rnd.nextInt(segs.size() - 1);
        Path seg = segs.get(s);
        long base = JournalFiles.base(seg);
        long lastOfSeg = JournalFiles.base(segs.get(s + 1)) - 1;
        List<long[]> frames = JournalFiles.frames(seg);
        long[] frame = frames.get(rnd.nextInt(frames.size()));
        long at = frame[0] + rnd.nextLong(frame[1] - frame[0]);
        JournalFiles.flipBit(seg, at, rnd.nextInt(8));
        long damaged = base + frames.indexOf(frame);
        String name = seg.getFileName().toString();
        boolean deleteIndex = rnd.nextBoolean(); // with no index the open scans the segment and finds it at once
        if (deleteIndex) {
            try {
                Files.delete(dir.resolve(name.replace(".seg", ".idx")));
            } catch (IOException e) {
                fail("no index", e);
            }
        }
        try (LocalJournal j = LocalJournal.open(reopen(dir))) {
            assertThat(j.tornTail()).isEmpty();
            assertThat(j.nextOffset()).isEqualTo(originals.size());
            if (deleteIndex) {
                assertThat(j.openProblems()).anySatisfy(p -> {
                    assertThat(p.kind()).isEqualTo(Kind.DAMAGED_RECORD);
                    assertThat(p.firstOffset()).isEqualTo(damaged);
                });
            }
            assertSame(j.read(0, (int) damaged), 0, (int) damaged);
            assertThatThrownBy(() -> j.read(0, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class)
                    .hasMessageContaining(name).hasMessageContaining("offsets " + damaged + ".." + lastOfSeg)
                    .satisfies(e -> assertThat(((EventLogException) e).kind()).isEqualTo(EventLogException.Kind.CORRUPT));
            assertThatThrownBy(() -> j.read(damaged, 1)).isInstanceOf(EventLogException.class).hasMessageContaining(name);
            assertSame(j.read(lastOfSeg + 1, Integer.MAX_VALUE), (int) lastOfSeg + 1, originals.size());
            List<Envelope> tailed = new ArrayList<>();
            assertThatThrownBy(() -> Flux.from(j.tail(0)).doOnNext(tailed::add).blockLast(Duration.ofSeconds(5)))
                    .hasMessageContaining(name);
            assertSame(tailed, 0, (int) damaged); // the tail stops at the damage, it does not skip
            assertThat(JournalInspector.of(j).verify()).singleElement().satisfies(p -> {
                assertThat(p.kind()).isEqualTo(Kind.DAMAGED_RECORD);
                assertThat(p.file()).isEqualTo(name);
                assertThat(p.firstOffset()).isEqualTo(damaged);
                assertThat(p.lastOffset()).isEqualTo(lastOfSeg);
            });
            assertThat(j.append("more", Fixtures.event(1)).join()).isEqualTo(originals.size()); // the tail is healthy: appends go on
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {41, 42, 43, 44, 45, 46})
    void aTruncatedSealedSegmentIsReportedAndReadingStopsThere(long seed) {
        Random rnd = new Random(seed);
        Path dir = copy("trunc-sealed");
        List<Path> segs = JournalFiles.segments(dir);
        int s = rnd.nextInt(segs.size() - 1);
        Path seg = segs.get(s);
        List<long[]> frames = JournalFiles.frames(seg);
        long cut = JournalFiles.SEGMENT_HEADER + rnd.nextLong(frames.getLast()[1] - JournalFiles.SEGMENT_HEADER);
        JournalFiles.truncate(seg, cut);
        long firstLost = JournalFiles.base(seg) + frames.stream().filter(f -> f[1] <= cut).count();
        String name = seg.getFileName().toString();
        try (LocalJournal j = LocalJournal.open(reopen(dir))) {
            assertThat(j.openProblems()).isNotEmpty().allSatisfy(p -> assertThat(p.file()).startsWith(name.substring(0, 20)));
            assertSame(j.read(0, (int) firstLost), 0, (int) firstLost);
            assertThatThrownBy(() -> j.read(0, Integer.MAX_VALUE)).isInstanceOf(EventLogException.class).hasMessageContaining(name)
                    .hasMessageContaining("offsets " + firstLost + "..");
            List<JournalProblem> problems = JournalInspector.of(j).verify();
            assertThat(problems).allSatisfy(p -> assertThat(p.file()).startsWith(name.substring(0, 20))); // the segment, maybe its index
            assertThat(problems).anySatisfy(p -> {
                assertThat(p.file()).isEqualTo(name);
                assertThat(p.kind()).isIn(Kind.DAMAGED_RECORD, Kind.OFFSET_GAP);
                assertThat(p.firstOffset()).isEqualTo(firstLost);
            });
        }
    }

    /** Equal to {@code originals[from, to)}, with a short message (envelopes print long). */
    private static void assertSame(List<Envelope> actual, long from, long to) {
        assertThat(actual.stream().map(Envelope::offset).toList()).isEqualTo(LocalJournalTest.range(from, to));
        for (Envelope e : actual) {
            if (!e.equals(originals.get((int) e.offset()))) {
                fail("record " + e.offset() + " differs from what was appended");
            }
        }
    }

    @Test
    void aReadOnlyOpenReportsATornTailAndChangesNothing() {
        Path dir = copy("ro");
        Path last = JournalFiles.segments(dir).getLast();
        List<long[]> frames = JournalFiles.frames(last);
        long base = JournalFiles.base(last);
        JournalFiles.truncate(last, frames.getLast()[1] - 3);
        Map<String, String> before = JournalFiles.digest(dir);
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.tornTail()).hasValueSatisfying(p -> assertThat(p.firstOffset()).isEqualTo(base + frames.size() - 1));
            assertThat(in.verify()).singleElement().extracting(JournalProblem::kind).isEqualTo(Kind.TORN_TAIL);
            assertThat(in.segments().getLast().lastOffset()).isEqualTo(base + frames.size() - 2);
        }
        try (LocalJournal ro = LocalJournal.openReadOnly(dir)) {
            assertSame(ro.read(0, Integer.MAX_VALUE), 0, (int) (base + frames.size() - 1));
        }
        assertThat(JournalFiles.digest(dir)).isEqualTo(before);
    }

    @Test
    void aZeroFilledTailIsCut() {
        Path dir = copy("zeros");
        JournalFiles.appendZeros(JournalFiles.segments(dir).getLast(), 4096);
        try (LocalJournal j = LocalJournal.open(reopen(dir))) {
            assertThat(j.tornTail()).hasValueSatisfying(p -> assertThat(p.detail()).contains("impossible").contains("4096 bytes"));
            assertSame(j.read(0, Integer.MAX_VALUE), 0, originals.size());
        }
    }

    @Test
    void aDamagedIndexIsRebuiltAndLookupsStayRight() throws IOException {
        Path dir = copy("index");
        Path idx = dir.resolve(JournalFiles.segments(dir).get(1).getFileName().toString().replace(".seg", ".idx"));
        JournalFiles.flipBit(idx, Files.size(idx) / 2, 3);
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.verify()).singleElement().extracting(JournalProblem::kind).isEqualTo(Kind.INDEX_DAMAGED);
        }
        try (LocalJournal j = LocalJournal.open(reopen(dir))) {
            assertThat(j.openProblems()).singleElement().extracting(JournalProblem::kind).isEqualTo(Kind.INDEX_DAMAGED);
            for (Envelope e : originals) {
                if (e.offset() == 0 || !originals.get((int) e.offset() - 1).recordedAt().equals(e.recordedAt())) {
                    assertThat(j.offsetAt(e.recordedAt())).hasValue(e.offset());
                }
            }
            assertThat(JournalInspector.of(j).verify()).isEmpty();
        }
    }
}
