package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.journal.JournalProblem.Kind;
import io.kproxy.journal.spi.EventLogException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FIFO, a directory or a symbolic link in place of a segment, an index, a snapshot or the lock
 * file (issue 18, defect 5): nothing hangs (a FIFO blocks whoever opens it for reading until a
 * writer comes), nothing is followed out of the directory, and each is reported with the offsets
 * it held while the rest of the journal is served.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class NonRegularFilesTest {

    @TempDir
    static Path shared;

    @TempDir
    Path tmp;

    static Path pristine;

    @BeforeAll
    static void writeAJournal() {
        pristine = shared.resolve("pristine");
        try (LocalJournal j = LocalJournal.open(options(pristine))) {
            for (int i = 0; i < 60; i += 5) {
                j.append(Fixtures.drafts(i, 5)).join();
            }
            j.storeSnapshot(30, new byte[] {1, 2, 3});
        }
        assertThat(JournalFiles.segments(pristine).size()).isGreaterThanOrEqualTo(4);
    }

    static JournalOptions options(Path dir) {
        return JournalOptions.defaults(dir).withSegmentBytes(2000).withFsyncWindow(Duration.ZERO);
    }

    private Path copy() {
        Path d = tmp.resolve("j");
        JournalFiles.copyDir(pristine, d);
        return d;
    }

    private static void fifo(Path p) throws IOException, InterruptedException {
        Files.deleteIfExists(p);
        assertThat(new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor()).isZero();
    }

    @Test
    void aFifoInPlaceOfAnIndexIsReportedAndTheIndexRebuilt() throws Exception {
        Path dir = copy();
        Path seg = JournalFiles.segments(dir).get(1);
        fifo(dir.resolve(seg.getFileName().toString().replace(".seg", ".idx")));
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.verify()).anySatisfy(p -> {
                assertThat(p.kind()).isEqualTo(Kind.INDEX_DAMAGED);
                assertThat(p.detail()).contains("not a regular file");
            });
        }
        try (LocalJournal j = LocalJournal.open(options(dir))) {
            assertThat(j.read(0, 100)).hasSize(60);
        }
        assertThat(Files.isRegularFile(dir.resolve(seg.getFileName().toString().replace(".seg", ".idx")))).isTrue();
    }

    @Test
    void aFifoInPlaceOfASnapshotIsNeverOpened() throws Exception {
        Path dir = copy();
        fifo(dir.resolve("snapshots/00000000000000000030.snap"));
        try (JournalInspector in = JournalInspector.open(dir)) {
            assertThat(in.verify()).anySatisfy(p -> assertThat(p.kind()).isEqualTo(Kind.SNAPSHOT_DAMAGED));
        }
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            assertThat(j.snapshotAtOrBefore(59)).isEmpty();
        }
    }

    @Test
    void aFifoDirectoryOrLinkInPlaceOfASealedSegmentIsReportedWithItsOffsetsAndTheRestServed() throws Exception {
        for (String kind : List.of("fifo", "directory", "link")) {
            Path dir = tmp.resolve(kind);
            JournalFiles.copyDir(pristine, dir);
            List<Path> segs = JournalFiles.segments(dir);
            Path victim = segs.get(1);
            long first = JournalFiles.base(victim);
            long last = JournalFiles.base(segs.get(2)) - 1;
            switch (kind) {
                case "fifo" -> fifo(victim);
                case "directory" -> {
                    Files.delete(victim);
                    Files.createDirectory(victim);
                }
                default -> {
                    Path elsewhere = tmp.resolve("elsewhere.seg");
                    Files.move(victim, elsewhere);
                    Files.createSymbolicLink(victim, elsewhere);
                }
            }
            try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
                assertThat(j.openProblems()).as(kind).anySatisfy(p -> {
                    assertThat(p.kind()).isEqualTo(Kind.UNREADABLE_FILE);
                    assertThat(p.firstOffset()).isEqualTo(first);
                    assertThat(p.lastOffset()).isEqualTo(last);
                });
                assertThat(j.read(0, (int) first)).hasSize((int) first);
                assertThat(j.read(last + 1, 100)).hasSize((int) (59 - last));
                assertThatThrownBy(() -> j.read(first, 1)).isInstanceOfSatisfying(EventLogException.class,
                        e -> assertThat(e.lostFirst()).isEqualTo(first));
            }
            try (JournalInspector in = JournalInspector.open(dir)) {
                assertThat(in.verify()).as(kind).extracting(JournalProblem::kind).contains(Kind.UNREADABLE_FILE);
            }
        }
    }

    @Test
    void aFifoInPlaceOfTheActiveSegmentFailsAReadWriteOpenClearly() throws Exception {
        Path dir = copy();
        Path last = JournalFiles.segments(dir).getLast();
        long base = JournalFiles.base(last);
        fifo(last);
        assertThatThrownBy(() -> LocalJournal.open(options(dir))).isInstanceOfSatisfying(EventLogException.class, e -> {
            assertThat(e.kind()).isEqualTo(EventLogException.Kind.CORRUPT);
            assertThat(e.getMessage()).contains(last.getFileName().toString()).contains("not a regular file");
        });
        try (LocalJournal j = LocalJournal.openReadOnly(dir)) {
            assertThat(j.read(0, (int) base)).hasSize((int) base);
            assertThat(j.openProblems()).anySatisfy(p -> assertThat(p.kind()).isEqualTo(Kind.UNREADABLE_FILE));
        }
    }

    @Test
    void aFifoInPlaceOfTheLockFileFailsClearly() throws Exception {
        Path dir = copy();
        fifo(dir.resolve("journal.lock"));
        assertThatThrownBy(() -> LocalJournal.open(options(dir))).isInstanceOf(EventLogException.class)
                .hasMessageContaining("not a regular file");
    }
}
