package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kproxy.model.InvalidValueException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link EventCodec#decodeAll}: the same outcome as decoding record by record, whatever the
 * parallelism, including which record fails first and what was decoded before it.
 */
@Timeout(60)
class EventCodecBatchTest {

    private static ExecutorService pool;

    @BeforeAll
    static void startPool() {
        pool = Executors.newFixedThreadPool(3);
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    /** {@code n} records of every type, each inside a larger array as a journal buffer holds it. */
    static List<RawRecord> records(long seed, int n) {
        EventGenerator gen = new EventGenerator(seed);
        EventType[] types = EventType.values();
        List<RawRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] b = EventCodec.encode(gen.instant(), gen.source(), gen.event(types[i % types.length]));
            byte[] framed = new byte[b.length + 5];
            System.arraycopy(b, 0, framed, 2, b.length);
            out.add(new RawRecord(1000 + i, framed, 2, b.length));
        }
        return out;
    }

    static List<Envelope> oneByOne(List<RawRecord> records) {
        return records.stream().map(r -> EventCodec.decode(r.offset(), r.bytes(), r.off(), r.len())).toList();
    }

    @Test
    void everyParallelismDecodesWhatOneByOneDecodes() {
        long seed = System.nanoTime();
        List<RawRecord> in = records(seed, 700);
        List<Envelope> expected = oneByOne(in);
        for (int p : new int[] {1, 2, 3, 4, 64}) {
            List<Envelope> got = EventCodec.decodeAll(in, pool, p);
            assertThat(got).as("seed=%d parallelism=%d", seed, p).isEqualTo(expected);
            assertThatThrownBy(() -> got.set(0, expected.get(1))).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(EventCodec.decodeAll(List.of(), pool, 2)).isEmpty();
        assertThat(EventCodec.decodeAll(in.subList(0, 5), pool, 4)).isEqualTo(expected.subList(0, 5));
    }

    @Test
    void theFirstDamagedRecordInBatchOrderIsReportedWithEverythingBeforeIt() {
        long seed = System.nanoTime();
        List<RawRecord> in = new ArrayList<>(records(seed, 600));
        List<Envelope> expected = oneByOne(in);
        // damage a record late in the batch (a later run), then an earlier one too
        for (int bad : new int[] {550, 310, 0}) {
            RawRecord r = in.get(bad);
            RawRecord cut = new RawRecord(r.offset(), r.bytes(), r.off(), r.len() - 1);
            in.set(bad, cut);
            EventDecodeException alone = catchThrowableOfType(EventDecodeException.class,
                    () -> EventCodec.decode(cut.offset(), cut.bytes(), cut.off(), cut.len()));
            for (int p : new int[] {1, 2, 4}) {
                BatchDecodeException e = catchThrowableOfType(BatchDecodeException.class, () -> EventCodec.decodeAll(in, pool, p));
                assertThat(e).as("seed=%d bad=%d p=%d", seed, bad, p).isNotNull();
                assertThat(e.index()).isEqualTo(bad);
                assertThat(e.offset()).isEqualTo(1000L + bad);
                assertThat(e.decodedBefore()).isEqualTo(expected.subList(0, bad));
                assertThat(e.getCause()).hasMessage(alone.getMessage());
                assertThat(e.getCause().reason()).isEqualTo(alone.reason());
            }
        }
    }

    @Test
    void aRefusingExecutorLeavesTheWorkToTheCaller() {
        List<RawRecord> in = records(11, 300);
        AtomicInteger refused = new AtomicInteger();
        List<Envelope> got = EventCodec.decodeAll(in, task -> {
            refused.incrementAndGet();
            throw new RejectedExecutionException("full");
        }, 4);
        assertThat(got).isEqualTo(oneByOne(in));
        assertThat(refused).hasValue(3);
        assertThatThrownBy(() -> EventCodec.decodeAll(in, pool, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runsCarryAboutEqualBytes() {
        RawRecord[] in = new RawRecord[200];
        for (int i = 0; i < in.length; i++) {
            in[i] = new RawRecord(i, new byte[i < 100 ? 10 : 1000]); // small ones first, then large ones
        }
        int[] bounds = BatchDecoder.cut(in, 4);
        assertThat(bounds[0]).isZero();
        assertThat(bounds[4]).isEqualTo(200);
        for (int r = 0; r < 4; r++) {
            assertThat(bounds[r]).isLessThanOrEqualTo(bounds[r + 1]);
            long bytes = Arrays.stream(in, bounds[r], bounds[r + 1]).mapToLong(RawRecord::len).sum();
            assertThat(bytes).as("run %d of %s", r, Arrays.toString(bounds)).isBetween(25_000L, 26_500L);
        }
    }

    @Test
    void rawRecordsAreChecked() {
        assertThatThrownBy(() -> new RawRecord(-1, new byte[1])).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> new RawRecord(0, new byte[4], 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> new RawRecord(0, null, 0, 0)).isInstanceOf(NullPointerException.class);
        assertThat(new RawRecord(3, new byte[4]).len()).isEqualTo(4);
    }
}
