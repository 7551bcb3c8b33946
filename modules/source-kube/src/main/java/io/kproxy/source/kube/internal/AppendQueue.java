package io.kproxy.source.kube.internal;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.kproxy.events.ClusterEvent;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ordered, bounded queue of events and a single thread that appends them to the log in
 * batches, in order. When the log refuses an append with a retryable error (a full disk) the
 * thread retries the same batch with exponential backoff (Resilience4j) for as long as it takes:
 * the queue fills and {@link #put} blocks the informer callbacks, so nothing is dropped and
 * nothing is reordered. A non-retryable log error (closed, corrupt, locked) stops the source.
 *
 * <p>Threading: {@link #put} and {@link #afterDurable} are called from informer threads and
 * block while the queue is full. Markers run on the appender thread once every event queued
 * before them is durable.
 */
public final class AppendQueue implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AppendQueue.class);
    private static final long POLL_MILLIS = 100;

    private sealed interface Item permits Append, Marker {
    }

    private record Append(ClusterEvent event) implements Item {
    }

    private record Marker(Runnable action) implements Item {
    }

    private final EventLog log;
    private final String source;
    private final int batch;
    private final SourceStats stats;
    private final BlockingQueue<Item> queue;
    private final Retry retry;
    private final Thread thread;
    private volatile boolean accepting = true;
    private volatile long drainDeadlineNanos = Long.MAX_VALUE;
    private volatile boolean drained;

    public AppendQueue(EventLog log, String source, int capacity, int batch, Duration backoffInitial,
                       Duration backoffMax, SourceStats stats) {
        this.log = log;
        this.source = source;
        this.batch = batch;
        this.stats = stats;
        this.queue = new ArrayBlockingQueue<>(capacity);
        RetryConfig config = RetryConfig.custom()
                .maxAttempts(Integer.MAX_VALUE)
                .intervalFunction(IntervalFunction.ofExponentialBackoff(backoffInitial, 2.0, backoffMax))
                .retryOnException(AppendQueue::retryable)
                .failAfterMaxAttempts(false)
                .build();
        this.retry = Retry.of("kproxy-source-append", config);
        this.retry.getEventPublisher().onRetry(e -> {
            stats.appendRetried();
            stats.error("append refused: " + e.getLastThrowable().getMessage());
            LOG.warn("decision=retry-append attempt={} wait_ms={} error={}", e.getNumberOfRetryAttempts(),
                    e.getWaitInterval().toMillis(), e.getLastThrowable().toString());
        });
        this.thread = Thread.ofPlatform().name("kproxy-source-append").daemon(true).unstarted(this::run);
    }

    public void start() {
        thread.start();
    }

    /**
     * Queues {@code event} behind everything queued before; blocks while the queue is full.
     *
     * @return false when the source is stopping or failed (the event was not queued)
     */
    public boolean put(ClusterEvent event) throws InterruptedException {
        return offer(new Append(event));
    }

    /** Runs {@code action} on the appender thread once everything queued before it is durable. */
    public boolean afterDurable(Runnable action) throws InterruptedException {
        return offer(new Marker(action));
    }

    /** Events and markers waiting. */
    public int depth() {
        return queue.size();
    }

    private boolean offer(Item item) throws InterruptedException {
        while (accepting && !stats.hasFailed()) {
            if (queue.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
        return false;
    }

    private void run() {
        List<Item> items = new ArrayList<>(batch);
        try {
            while (!stats.hasFailed() && (accepting || (!queue.isEmpty() && System.nanoTime() < drainDeadlineNanos))) {
                Item first = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                items.add(first);
                queue.drainTo(items, batch - 1);
                process(items);
                items.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = items.size() + queue.size();
        drained = left == 0 && !stats.hasFailed() && !Thread.currentThread().isInterrupted();
        if (left > 0) {
            LOG.info("decision=stop-appending pending={} reason=source-closing note=the-next-start-relists-them", left);
        }
    }

    private void process(List<Item> items) throws InterruptedException {
        List<EventLog.Draft> drafts = new ArrayList<>(items.size());
        for (Item item : items) {
            switch (item) {
                case Append a -> drafts.add(new EventLog.Draft(source, a.event()));
                case Marker m -> {
                    flush(drafts);
                    m.action().run();
                }
            }
        }
        flush(drafts);
    }

    private void flush(List<EventLog.Draft> drafts) throws InterruptedException {
        if (drafts.isEmpty()) {
            return;
        }
        try {
            appendWithRetry(drafts);
            stats.appended(drafts.size());
        } catch (EventLogException e) {
            stats.failed("event log failed: " + e.getMessage());
            LOG.error("decision=stop-source reason=log-failed kind={} pending={} error={}", e.kind(), drafts.size(), e.toString());
            accepting = false;
        } catch (RuntimeException e) {
            // Not the log refusing: one record cannot be written (an encoding limit, say). Write
            // the others one by one so that only the offending record is skipped, loudly.
            if (drafts.size() > 1) {
                for (EventLog.Draft d : drafts) {
                    flush(new ArrayList<>(List.of(d)));
                }
            } else {
                stats.skipped();
                stats.error("record not appendable: " + e.getMessage());
                LOG.error("decision=skip-record type={} error={}", drafts.getFirst().event().type(), e.toString());
            }
        }
        drafts.clear();
    }

    private void appendWithRetry(List<EventLog.Draft> drafts) throws InterruptedException {
        List<EventLog.Draft> copy = List.copyOf(drafts);
        try {
            retry.executeCheckedSupplier(() -> appendOnce(copy));
        } catch (EventLogException | InterruptedException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("interrupted while appending");
            }
            throw e;
        } catch (CancellationException e) {
            throw new InterruptedException("interrupted while appending");
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted while appending");
        }
    }

    private List<Long> appendOnce(List<EventLog.Draft> drafts) throws InterruptedException {
        try {
            return log.append(drafts).get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(cause);
        }
    }

    private static boolean retryable(Throwable t) {
        return t instanceof EventLogException e && e.retryable();
    }

    /**
     * Stops accepting events: producers blocked on a full queue return at once (with false).
     * What is queued stays queued for {@link #close(Duration)}. Does not block.
     */
    public void stopAccepting() {
        accepting = false;
    }

    /**
     * Stops accepting, appends what is queued for up to {@code drain}, then stops the thread.
     * Blocks for at most about {@code drain} plus one backoff interval.
     */
    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    /**
     * Whether the appender has stopped with every event queued before it durable (none left
     * behind, the log never failed). False while it runs, and after a close that left events.
     */
    public boolean drained() {
        return drained && !thread.isAlive();
    }

    public void close(Duration drain) {
        drainDeadlineNanos = System.nanoTime() + drain.toNanos();
        accepting = false;
        try {
            thread.join(drain.toMillis() + POLL_MILLIS);
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(drain.toMillis() + POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
