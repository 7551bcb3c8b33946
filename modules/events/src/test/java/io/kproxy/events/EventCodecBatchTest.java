package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kproxy.model.InvalidValueException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
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
        assertThat(refused).hasValue(1); // after one refusal the caller stops asking
        assertThatThrownBy(() -> EventCodec.decodeAll(in, pool, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theCallerNeverWaitsForATaskThatHasNotStarted() {
        List<RawRecord> in = records(12, 500);
        List<Runnable> queued = new ArrayList<>();
        List<Envelope> got = EventCodec.decodeAll(in, queued::add, 4); // an executor that runs nothing (yet)
        assertThat(got).isEqualTo(oneByOne(in));
        assertThat(queued).hasSize(3);
        queued.forEach(Runnable::run); // late tasks find no chunk left and change nothing
        assertThat(got).isEqualTo(oneByOne(in));
    }

    @Test
    void aSlowHelperDoesNotHoldUpTheOthers() {
        List<RawRecord> in = records(13, 2_000);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger submitted = new AtomicInteger();
        Executor slowFirst = task -> {
            if (submitted.getAndIncrement() == 0) {
                pool.execute(() -> {
                    awaitQuietly(release); // starts only after the batch is done
                    task.run();
                });
            } else {
                pool.execute(task);
            }
        };
        List<Envelope> got = EventCodec.decodeAll(in, slowFirst, 3);
        release.countDown();
        assertThat(got).isEqualTo(oneByOne(in));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
