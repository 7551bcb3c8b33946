package io.kproxy.journal.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FramesAndIndexTest {

    @TempDir
    Path tmp;

    private Segment segmentWith(List<byte[]> payloads, byte[] trailer) throws IOException {
        Path p = tmp.resolve(SegmentFiles.segmentName(0));
        ByteBuffer b = ByteBuffer.allocate(1 << 22);
        b.put(SegmentFiles.header(0));
        payloads.forEach(x -> RecordFrame.put(b, x));
        b.put(trailer);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(b.flip());
        }
        return new Segment(0, p, new SparseIndex());
    }

    @Test
    void scansFramesOfEverySizeIncludingOnesLargerThanTheReadBuffer() throws IOException {
        Random rnd = new Random(1);
        List<byte[]> payloads = new ArrayList<>();
        for (int n : new int[] {1, 7, 1000, 64 << 10, (64 << 10) + 1, 300_000, 3}) {
            byte[] x = new byte[n];
            rnd.nextBytes(x);
            payloads.add(x);
        }
        Segment s = segmentWith(payloads, new byte[0]);
        FrameScanner sc = new FrameScanner(s, SegmentFiles.HEADER, Files.size(s.path()));
        for (byte[] want : payloads) {
            assertThat(sc.next()).isTrue();
            assertThat(Arrays.copyOfRange(sc.array(), sc.payloadOffset(), sc.payloadOffset() + sc.payloadLength())).isEqualTo(want);
        }
        assertThat(sc.next()).isFalse();
        assertThat(sc.stop()).isEqualTo(FrameScanner.Stop.END);
        s.close();
    }

    @Test
    void namesEachKindOfDamage() throws IOException {
        List<byte[]> one = List.of(new byte[] {1, 2, 3});
        assertThat(stopAfterOne(segmentWith(one, new byte[] {0, 0, 0}))).isEqualTo(FrameScanner.Stop.TRUNCATED);
        assertThat(stopAfterOne(segmentWith(one, new byte[12]))).isEqualTo(FrameScanner.Stop.BAD_LENGTH); // zero fill
        assertThat(stopAfterOne(segmentWith(one, new byte[] {0, 0, 0, 9, 0, 0, 0, 0, 1}))).isEqualTo(FrameScanner.Stop.TRUNCATED);
        assertThat(stopAfterOne(segmentWith(one, new byte[] {0, 0, 0, 1, 1, 2, 3, 4, 5}))).isEqualTo(FrameScanner.Stop.CRC_MISMATCH);
        assertThat(stopAfterOne(segmentWith(one, new byte[] {(byte) 0x7f, 0, 0, 0, 0, 0, 0, 0}))).isEqualTo(FrameScanner.Stop.BAD_LENGTH);
    }

    private static FrameScanner.Stop stopAfterOne(Segment s) throws IOException {
        FrameScanner sc = new FrameScanner(s, SegmentFiles.HEADER, Files.size(s.path()));
        assertThat(sc.next()).isTrue();
        assertThat(sc.next()).isFalse();
        assertThat(sc.framePosition()).isEqualTo(SegmentFiles.HEADER + RecordFrame.HEADER + 3);
        s.close();
        return sc.stop();
    }

    @Test
    void theChecksumCoversTheLength() {
        byte[] p = {5, 6, 7, 8};
        assertThat(RecordFrame.checksum(p, 0, 4)).isNotEqualTo(RecordFrame.checksum(p, 0, 3));
    }

    @Test
    void indexFilesRoundTripAndRefuseWhatDoesNotDescribeTheirSegment() throws IOException {
        SparseIndex idx = new SparseIndex();
        Instant t = Instant.parse("2025-01-01T00:00:00Z");
        idx.add(100, SegmentFiles.HEADER, t);
        idx.add(150, 5000, t.plusSeconds(1));
        idx.add(190, 9000, t.plusSeconds(1));
        Path f = tmp.resolve("x.idx");
        IndexFile.store(f, 100, idx, 10_000, 199, t.plusSeconds(2));
        String[] why = new String[1];
        IndexFile.Loaded l = IndexFile.load(f, 100, 10_000, why);
        assertThat(l).isNotNull();
        assertThat(l.lastOffset()).isEqualTo(199);
        assertThat(l.index().size()).isEqualTo(3);
        assertThat(l.index().floorByOffset(170)).isEqualTo(1);
        assertThat(l.index().floorByOffset(99)).isEqualTo(-1);
        assertThat(l.index().lastBefore(t.plusSeconds(1))).isEqualTo(0);
        assertThat(l.index().lastBefore(t.plusSeconds(5))).isEqualTo(2);
        assertThat(IndexFile.load(f, 100, 10_001, why)).isNull();
        assertThat(why[0]).contains("10001");
        assertThat(IndexFile.load(f, 101, 10_000, why)).isNull();
        byte[] b = Files.readAllBytes(f);
        b[60] ^= 4;
        Files.write(f, b);
        assertThat(IndexFile.load(f, 100, 10_000, why)).isNull();
        assertThat(why[0]).isEqualTo("checksum mismatch");
        assertThat(IndexFile.load(tmp.resolve("none.idx"), 100, 10_000, why)).isNull();
        assertThat(why[0]).isEqualTo("missing");
    }

    @Test
    void sparseIndexAddsEntriesOnlyEveryInterval() {
        SparseIndex idx = new SparseIndex();
        Instant t = Instant.EPOCH;
        int added = 0;
        for (int i = 0; i < 1000; i++) {
            if (idx.maybeAdd(i, SegmentFiles.HEADER + 100L * i, t, 1000)) {
                added++;
            }
        }
        assertThat(added).isEqualTo(100);
        assertThat(idx.offset(1)).isEqualTo(10);
    }
}
