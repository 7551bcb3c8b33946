package io.kproxy.journal;

import io.kproxy.events.BatchDecodeException;
import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import io.kproxy.events.RawRecord;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Decodes batches of raw log records for bulk readers (replay at start, history folding forward
 * from a snapshot, offline tools): {@link EventCodec#decodeAll} on the calling thread plus helper
 * threads of one small pool shared by every log in the process. {@code LocalJournal.read} and the
 * historical part of its {@code tail} use it; another {@code EventLog} implementation that reads
 * records in bulk (a Kafka consumer's poll) can hand its records here too.
 *
 * <p>The pool: at most {@code min(availableProcessors - 1, 3)} daemon threads named
 * {@code kproxy-replay-decoder-<n>}, created on first need and ended after 30 s idle. It queues
 * nothing: a helper task that finds no idle or creatable thread is refused and the caller decodes
 * that share itself, so concurrent readers never wait behind each other's tasks. The cap of three
 * helpers is ours: a proxy shares its node with workloads, and the fold that consumes a replay
 * runs on one thread, so decoding far faster than it folds gains nothing. On one processor no
 * thread is ever created.
 *
 * <p>Batches of fewer than {@link #PARALLEL_MIN} records are decoded on the caller alone (a hand-off
 * to another thread costs more than it saves for a live tail's few new records).
 *
 * <p>Threading: every method is safe from any thread; {@link #decode} blocks until the whole batch
 * is decoded (CPU only, no I/O). Nothing here accepts or returns null.
 */
public final class ReplayDecoder {

    /** Below this many records a batch is decoded on the calling thread alone. */
    public static final int PARALLEL_MIN = 64;

    private static final int MAX_HELPERS = 3;

    private ReplayDecoder() {
    }

    /**
     * The envelopes of {@code records}, in order: exactly what decoding them one by one with
     * {@link EventCodec#decode(long, byte[], int, int)} returns. The records' bytes must not change
     * until this returns.
     *
     * @return an immutable list
     * @throws BatchDecodeException for the first record (in batch order) that does not decode,
     *         with the envelopes before it
     */
    public static List<Envelope> decode(List<RawRecord> records) {
        if (records.size() < PARALLEL_MIN || Pool.HELPERS == 0) {
            // parallelism 1: the same code path and the same failure type, all on the caller
            return EventCodec.decodeAll(records, Runnable::run, 1);
        }
        return EventCodec.decodeAll(records, Pool.EXECUTOR, Pool.HELPERS + 1);
    }

    /** Threads a large batch is decoded on at most, the caller included. */
    public static int parallelism() {
        return Pool.HELPERS + 1;
    }

    /** The shared pool, created on first use (class initialisation is lazy and thread-safe). */
    private static final class Pool {
        static final int HELPERS = Math.clamp(Runtime.getRuntime().availableProcessors() - 1, 0, MAX_HELPERS);

        /** Refusals are expected (all helpers busy) and cheap: one shared exception, no stack walk per refusal. */
        private static final RejectedExecutionException BUSY = new RejectedExecutionException("every replay decoder is busy");

        static final ThreadPoolExecutor EXECUTOR = new ThreadPoolExecutor(0, Math.max(1, HELPERS), 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), Thread.ofPlatform().daemon().name("kproxy-replay-decoder-", 1).factory(),
                (task, executor) -> {
                    throw BUSY;
                });
    }
}
