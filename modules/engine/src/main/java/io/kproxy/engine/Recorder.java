package io.kproxy.engine;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the engine hashes and appends its sync records ({@code SyncApplied}, {@code SyncFailed}):
 * in generation order, off the sync thread, with backpressure. A ruleset hash is cheap now (the
 * backends keep per-fragment digests and their sum: O(change)), but the append
 * may wait for the disk, which must not delay the next sync; every sync is recorded, so the queue
 * is bounded and {@link #submit} blocks when it is full: under a sustained change rate the syncs
 * then coalesce more changes each instead of records piling up.
 *
 * <p>Thread-safe. {@link #inline()} runs each task on the caller (tests on virtual time).
 */
public abstract sealed class Recorder implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Recorder.class);

    private Recorder() {
    }

    /** Runs each task at once, on the submitting thread. */
    public static Recorder inline() {
        return new Inline();
    }

    /** One thread named {@code name}; at most {@code capacity} tasks wait. */
    public static Recorder thread(String name, int capacity) {
        return new Threaded(name, capacity);
    }

    /** Runs {@code task} after the tasks submitted before it; blocks while the queue is full. */
    public abstract void submit(Runnable task);

    /** Runs what was submitted (waiting at most {@code timeout}), then stops. Idempotent. */
    public abstract void close(Duration timeout);

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    private static void runQuietly(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("decision=continue reason=\"recording failed\" error=\"{}\"", e.toString());
        }
    }

    private static final class Inline extends Recorder {
        @Override
        public void submit(Runnable task) {
            runQuietly(task);
        }

        @Override
        public void close(Duration timeout) {
        }
    }

    private static final class Threaded extends Recorder {
        private static final Runnable STOP = () -> { };
        private final BlockingQueue<Runnable> queue;
        private final Thread thread;
        private volatile boolean closed;

        Threaded(String name, int capacity) {
            this.queue = new ArrayBlockingQueue<>(capacity);
            this.thread = Thread.ofPlatform().name(name).daemon(true).start(this::loop);
        }

        private void loop() {
            try {
                for (Runnable task = queue.take(); task != STOP; task = queue.take()) {
                    runQuietly(task);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void submit(Runnable task) {
            if (closed) {
                LOG.warn("decision=drop-record reason=\"recorder closed\"");
                return;
            }
            try {
                queue.put(task);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close(Duration timeout) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (!queue.offer(STOP, timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    thread.interrupt();
                }
                thread.join(timeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
