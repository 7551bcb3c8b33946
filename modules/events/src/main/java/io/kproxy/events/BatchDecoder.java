package io.kproxy.events;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link EventCodec#decodeAll}: the batch is cut into chunks of contiguous records that the
 * calling thread and up to {@code parallelism - 1} executor tasks take one at a time, each
 * decoding into its own part of one result array. Taking chunks rather than fixed halves keeps
 * every thread busy when one of them runs slower (another process holds its core), and the
 * caller never waits for a task that has not started: it waits only for chunks already taken. A
 * chunk stops at its first failure; the earliest failure in batch order wins, so the outcome is
 * exactly that of decoding the records one by one. Not a public type; one instance per call.
 */
final class BatchDecoder {

    /** Below this many records per chunk, handing chunks to other threads costs more than it saves. */
    static final int MIN_CHUNK = 32;
    /** Chunks per thread: enough for a fast thread to take over a slow one's share. */
    private static final int CHUNKS_PER_THREAD = 8;

    private final RawRecord[] in;
    private final Envelope[] out;
    private final int chunk;
    private final int chunks;
    private final AtomicInteger next = new AtomicInteger();
    private final CountDownLatch done;
    /** Per chunk: the index of the record that failed (or -1) and why. */
    private final int[] failedAt;
    private final Throwable[] failures;

    private BatchDecoder(RawRecord[] in, int parallelism) {
        this.in = in;
        this.out = new Envelope[in.length];
        this.chunk = Math.max(MIN_CHUNK, -Math.floorDiv(-in.length, parallelism * CHUNKS_PER_THREAD));
        this.chunks = -Math.floorDiv(-in.length, chunk);
        this.done = new CountDownLatch(chunks);
        this.failedAt = new int[chunks];
        this.failures = new Throwable[chunks];
        Arrays.fill(failedAt, -1);
    }

    static List<Envelope> decodeAll(List<RawRecord> records, Executor executor, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
        }
        BatchDecoder b = new BatchDecoder(records.toArray(new RawRecord[0]), parallelism);
        int helpers = Math.min(parallelism, b.chunks) - 1;
        for (int h = 0; h < helpers; h++) {
            try {
                executor.execute(b::work);
            } catch (RejectedExecutionException e) {
                break; // the caller takes the chunks itself
            }
        }
        b.work();
        b.awaitChunks();
        return b.outcome();
    }

    /** Takes chunks until none is left. */
    private void work() {
        for (int c; (c = next.getAndIncrement()) < chunks; ) {
            int i = c * chunk;
            try {
                for (int to = Math.min(in.length, i + chunk); i < to; i++) {
                    RawRecord r = in[i];
                    out[i] = EventCodec.decode(r.offset(), r.bytes(), r.off(), r.len());
                }
            } catch (Throwable t) { // kept, and rethrown to the caller by outcome(): no thread may die silently
                failedAt[c] = i;
                failures[c] = t;
            } finally {
                done.countDown();
            }
        }
    }

    /** Waits until every chunk is decoded; an interrupt is kept for the caller, not acted on. */
    private void awaitChunks() {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private List<Envelope> outcome() {
        for (int c = 0; c < chunks; c++) {
            Throwable t = failures[c];
            if (t == null) {
                continue;
            }
            if (t instanceof EventDecodeException e) {
                int i = failedAt[c];
                List<Envelope> before = Collections.unmodifiableList(Arrays.asList(Arrays.copyOf(out, i)));
                throw new BatchDecodeException(i, in[i].offset(), before, e);
            }
            if (t instanceof RuntimeException e) {
                throw e; // not a decoding outcome (a bug): as it is
            }
            if (t instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException("decoding threw " + t, t);
        }
        return Collections.unmodifiableList(Arrays.asList(out));
    }
}
