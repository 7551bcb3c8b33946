package io.kproxy.events;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@link EventCodec#decodeAll}: the batch is cut into contiguous runs of about equal byte size,
 * the calling thread decodes the first, the executor the others, each into its own part of one
 * result array. A run stops at its first failure; after all runs are done the earliest failure
 * in batch order wins, so the outcome is exactly that of decoding the records one by one.
 */
final class BatchDecoder {

    /** Below this many records per run, handing runs to other threads costs more than it saves. */
    static final int MIN_RECORDS_PER_RUN = 32;

    private BatchDecoder() {
    }

    static List<Envelope> decodeAll(List<RawRecord> records, Executor executor, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
        }
        RawRecord[] in = records.toArray(new RawRecord[0]);
        Envelope[] out = new Envelope[in.length];
        int runs = Math.min(parallelism, Math.max(1, in.length / MIN_RECORDS_PER_RUN));
        int[] bounds = cut(in, runs);
        Run[] tasks = new Run[runs];
        CompletableFuture<?>[] others = new CompletableFuture<?>[runs - 1];
        for (int r = 0; r < runs; r++) {
            tasks[r] = new Run(in, out, bounds[r], bounds[r + 1]);
        }
        for (int r = 1; r < runs; r++) {
            others[r - 1] = submit(tasks[r], executor);
        }
        tasks[0].run();
        for (CompletableFuture<?> f : others) {
            f.join(); // a Run never completes exceptionally: it keeps its failure
        }
        for (Run t : tasks) {
            if (t.failure != null) {
                RawRecord bad = in[t.failedAt];
                List<Envelope> before = Collections.unmodifiableList(Arrays.asList(Arrays.copyOf(out, t.failedAt)));
                throw new BatchDecodeException(t.failedAt, bad.offset(), before, t.failure);
            }
            if (t.bug != null) {
                throw t.bug;
            }
        }
        return Collections.unmodifiableList(Arrays.asList(out));
    }

    /** Run boundaries: {@code runs + 1} indexes, cutting the batch into runs of about equal bytes. */
    static int[] cut(RawRecord[] in, int runs) {
        long total = 0;
        for (RawRecord r : in) {
            total += r.len();
        }
        int[] bounds = new int[runs + 1];
        bounds[runs] = in.length;
        long sum = 0;
        int r = 1;
        for (int i = 0; i < in.length && r < runs; i++) {
            sum += in[i].len();
            if (sum * runs >= total * r) {
                bounds[r++] = i + 1;
            }
        }
        while (r < runs) {
            bounds[r++] = in.length;
        }
        return bounds;
    }

    /** Runs {@code run} on the executor; in the caller when the executor refuses it. */
    private static CompletableFuture<?> submit(Run run, Executor executor) {
        try {
            return CompletableFuture.runAsync(run, executor);
        } catch (RejectedExecutionException e) {
            run.run();
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Decodes {@code in[from, to)} into {@code out}, stopping at the first failure, which it keeps. */
    private static final class Run implements Runnable {
        private final RawRecord[] in;
        private final Envelope[] out;
        private final int from;
        private final int to;
        private EventDecodeException failure;
        private RuntimeException bug;
        private int failedAt = -1;

        Run(RawRecord[] in, Envelope[] out, int from, int to) {
            this.in = in;
            this.out = out;
            this.from = from;
            this.to = to;
        }

        @Override
        public void run() {
            int i = from;
            try {
                for (; i < to; i++) {
                    RawRecord r = in[i];
                    out[i] = EventCodec.decode(r.offset(), r.bytes(), r.off(), r.len());
                }
            } catch (EventDecodeException e) {
                failure = e;
                failedAt = i;
            } catch (RuntimeException e) {
                bug = e; // not a decoding outcome: rethrown to the caller as it is
            }
        }
    }
}
