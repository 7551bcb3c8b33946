package io.kproxy.journal.local;

import io.kproxy.events.EventCodec;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.spi.EventLog.Draft;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's single writer thread, doing group commit: appends queue up for at most the fsync
 * window (or until a batch is large), are written with one write and made durable with one
 * fsync, and only then are their futures completed and the new records published to readers.
 * A segment is rolled between appends (an append never straddles two segments, so it is kept or
 * lost whole); see {@link CommitBatch} for the write path and its undo on failure.
 *
 * <p>{@link #append} is called from any thread and never blocks on I/O: it stamps the time
 * (never going backwards, so the time index stays monotonic), encodes, and queues.
 */
public final class GroupCommitWriter {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final long IDLE_TICK_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** A queued append: its encoded records and when it was stamped. */
    record Pending(List<byte[]> payloads, int bytes, Instant at, long enqueuedNanos, CompletableFuture<List<Long>> future) {
    }

    private final Clock clock;
    private final long windowNanos;
    private final int maxBatchBytes;
    private final CommitBatch commit;
    private final Runnable idleTick;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Thread thread;
    private long queuedBytes;
    private Instant lastStamp;
    private boolean closing;
    private EventLogException broken;

    /**
     * @param idleTick run on the writer thread after each roll and every 30 s of idleness (retention)
     */
    public GroupCommitWriter(JournalOptions options, JournalState state, Instant lastTime, FileSync sync, Runnable onDurable,
                             Runnable idleTick) throws IOException {
        this.clock = options.clock();
        this.windowNanos = options.fsyncWindow().toNanos();
        this.maxBatchBytes = options.maxBatchBytes();
        this.lastStamp = lastTime;
        this.idleTick = idleTick;
        Path dir = options.directory();
        this.commit = new CommitBatch(dir, state, options.segmentBytes(), options.indexIntervalBytes(), sync, onDurable, idleTick);
        this.thread = Thread.ofPlatform().daemon().name("kproxy-journal-writer-" + dir.getFileName()).unstarted(this::run);
        thread.start();
    }

    /**
     * Queues an append; the future completes once it is durable, or fails. Never blocks on I/O.
     * Records are encoded on the caller's thread, outside the queue lock, with the time read
     * before encoding; if another append took a later time first (or the clock stepped back), they
     * are encoded again under the lock with that later time, so times never go backwards in offset
     * order.
     */
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
        Instant t = clock.instant();
        Encoded e;
        try {
            e = encode(drafts, t);
        } catch (IllegalArgumentException bad) {
            return CompletableFuture.failedFuture(bad);
        }
        CompletableFuture<List<Long>> f = new CompletableFuture<>();
        lock.lock();
        try {
            if (broken != null) {
                return CompletableFuture.failedFuture(broken);
            }
            if (closing) {
                return CompletableFuture.failedFuture(new EventLogException(Kind.CLOSED, "journal is closed"));
            }
            if (t.isBefore(lastStamp)) {
                t = lastStamp;
                e = encode(drafts, t);
            }
            lastStamp = t;
            boolean wake = queue.isEmpty() || queuedBytes < maxBatchBytes && queuedBytes + e.bytes() >= maxBatchBytes;
            queue.add(new Pending(e.payloads(), e.bytes(), t, System.nanoTime(), f));
            queuedBytes += e.bytes();
            if (wake) {
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
        return f;
    }

    private record Encoded(List<byte[]> payloads, int bytes) {
    }

    private static Encoded encode(List<Draft> drafts, Instant at) {
        List<byte[]> payloads = new ArrayList<>(drafts.size());
        int bytes = 0;
        for (Draft d : drafts) {
            byte[] p = EventCodec.encode(at, d.source(), d.event());
            if (p.length > RecordFrame.MAX_PAYLOAD) {
                throw new IllegalArgumentException("record of " + p.length + " bytes exceeds the journal's limit of " + RecordFrame.MAX_PAYLOAD);
            }
            payloads.add(p);
            bytes += RecordFrame.size(p.length);
        }
        return new Encoded(payloads, bytes);
    }

    private void run() {
        try {
            List<Pending> batch;
            while ((batch = take()) != null) {
                if (batch.isEmpty()) {
                    idleTick.run();
                    continue;
                }
                EventLogException failure = commit.write(batch);
                if (failure != null) {
                    lock.lock();
                    try {
                        broken = failure;
                    } finally {
                        lock.unlock();
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.error("journal.writer died error=\"{}\"", e.toString(), e);
            lock.lock();
            try {
                broken = new EventLogException(Kind.UNAVAILABLE, "journal writer died: " + e, e);
            } finally {
                lock.unlock();
            }
        } finally {
            failQueued();
            commit.closeChannel();
        }
    }

    /** The next batch; empty on an idle tick; null once closing and drained. */
    private List<Pending> take() throws InterruptedException {
        lock.lock();
        try {
            long idle = IDLE_TICK_NANOS;
            while (queue.isEmpty() && !closing) {
                idle = changed.awaitNanos(idle);
                if (idle <= 0 && queue.isEmpty()) {
                    return List.of();
                }
            }
            if (closing || broken != null) {
                return null;
            }
            long deadline = queue.peek().enqueuedNanos() + windowNanos;
            long left;
            while (!closing && queuedBytes < maxBatchBytes && (left = deadline - System.nanoTime()) > 0) {
                changed.awaitNanos(left);
            }
            List<Pending> batch = new ArrayList<>();
            long bytes = 0;
            while (!queue.isEmpty() && (batch.isEmpty() || bytes + queue.peek().bytes() <= maxBatchBytes)) {
                Pending p = queue.poll();
                bytes += p.bytes();
                batch.add(p);
            }
            queuedBytes -= bytes;
            return batch;
        } finally {
            lock.unlock();
        }
    }

    private void failQueued() {
        List<Pending> left;
        EventLogException why;
        lock.lock();
        try {
            closing = true;
            left = new ArrayList<>(queue);
            queue.clear();
            queuedBytes = 0;
            why = broken != null ? broken : new EventLogException(Kind.CLOSED, "journal closed before the append was written");
        } finally {
            lock.unlock();
        }
        left.forEach(p -> p.future().completeExceptionally(why));
    }

    /** Stops taking appends, lets the batch in progress finish, fails what is still queued. Blocks until the thread ends. */
    public void close(Duration wait) {
        lock.lock();
        try {
            closing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            thread.join(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the writer stopped after an error it could not undo. */
    public EventLogException broken() {
        lock.lock();
        try {
            return broken;
        } finally {
            lock.unlock();
        }
    }

    static ByteBuffer grow(ByteBuffer b, int need) {
        ByteBuffer n = ByteBuffer.allocateDirect(Math.max(b.capacity() * 2, b.position() + need));
        n.put(b.flip());
        return n;
    }
}
