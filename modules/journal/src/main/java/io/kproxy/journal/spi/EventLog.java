package io.kproxy.journal.spi;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.Envelope;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Flux;

/**
 * An append-only, totally ordered log of {@link Envelope}s with dense offsets from 0: the local
 * journal on a node, or a Kafka topic for a cluster. Nothing here knows about files.
 *
 * <p>Threading: every method is safe to call from any thread. {@link #append} does not block;
 * its future completes (on a log-owned thread) once the records are durable, and only then.
 * {@link #read}, {@link #offsetAt} and the snapshot methods may block on I/O. {@link #tail} is a
 * cold {@link Flux} that honours backpressure. No method returns or accepts null.
 *
 * <p>Offsets are dense except where the log lost records to damage (a flipped bit, a deleted or
 * unreadable file): such a range is never served, never reused by an append, and a read that
 * reaches it fails with {@link EventLogException.Kind#CORRUPT} naming it
 * ({@link EventLogException#lostFirst()}); records before and after it stay readable.
 *
 * <p>Errors: a refused append completes its future exceptionally with an
 * {@link EventLogException}; {@link EventLogException#retryable()} tells a caller (the source)
 * whether to back off and try again (a full disk) or give up (a closed or corrupt log).
 */
public interface EventLog extends AutoCloseable {

    /** One record to append: who appends it and the fact. The log stamps offset and time. */
    record Draft(String source, ClusterEvent event) {
        public Draft {
            if (source == null || event == null) {
                throw new IllegalArgumentException("source and event are required");
            }
        }
    }

    /** Appends one record; completes with its offset once it is durable. */
    default CompletableFuture<Long> append(String source, ClusterEvent event) {
        return append(List.of(new Draft(source, event))).thenApply(List::getFirst);
    }

    /**
     * Appends records in order, contiguously; completes with their offsets once all are
     * durable. Either all are appended or none (the future fails).
     */
    CompletableFuture<List<Long>> append(List<Draft> drafts);

    /**
     * Up to {@code max} records from {@code fromOffset} on, in order; empty past the end. Fails
     * (never returns fewer records silently) when the range reaches records the log lost.
     */
    List<Envelope> read(long fromOffset, int max);

    /**
     * Every record from {@code fromOffset} on, then each new one as it becomes durable; never
     * completes on its own (it errors if the log is closed or corrupt).
     */
    Flux<Envelope> tail(long fromOffset);

    /** The offset the next append will get (the number of records ever appended). */
    long nextOffset();

    /** The first offset still held (retention may have removed older records). */
    long firstOffset();

    /** The first offset whose record was accepted at or after {@code time}, if any. */
    OptionalLong offsetAt(Instant time);

    /** Stores a snapshot of folded state covering every record up to and including {@code offset}. */
    void storeSnapshot(long offset, byte[] data);

    /**
     * The newest snapshot covering at most {@code offset} that may be used: the log holds every
     * record after it, and it is not inside a range of lost records (it would have been folded
     * from records the log no longer has). Never one ahead of the records a lost range cut off.
     */
    Optional<Snapshot> snapshotAtOrBefore(long offset);

    /** Releases files, sockets and threads; pending appends fail. Idempotent. */
    @Override
    void close();
}
