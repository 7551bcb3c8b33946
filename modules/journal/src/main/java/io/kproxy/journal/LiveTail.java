package io.kproxy.journal;

import io.kproxy.events.Envelope;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * Turns a log that can be read by range into a live, backpressured {@link Flux}: each
 * subscriber reads from its own cursor only as much as it requested, and is woken by
 * {@link #signal()} when new records become durable. Shared by every {@code EventLog}
 * implementation. Thread-safe; {@link #signal()} never blocks.
 */
public final class LiveTail {

    /** Reads up to {@code max} records from {@code from}; may block; throws on corruption. */
    @FunctionalInterface
    public interface RangeReader {
        List<Envelope> read(long from, int max);
    }

    private static final int BATCH = 512;

    private final RangeReader reader;
    private final Set<Runnable> waiters = ConcurrentHashMap.newKeySet();

    public LiveTail(RangeReader reader) {
        this.reader = reader;
    }

    /** Wakes every subscriber: new records are readable. */
    public void signal() {
        for (Runnable w : waiters) {
            w.run();
        }
    }

    /** Fails every live subscriber with {@code error} (the log was closed). */
    public void fail(Throwable error) {
        for (Runnable w : waiters) {
            if (w instanceof Drain d) {
                d.sink.error(error);
            }
        }
        waiters.clear();
    }

    /** Records from {@code fromOffset} on, then live. */
    public Flux<Envelope> from(long fromOffset) {
        return Flux.create(sink -> {
            Drain d = new Drain(sink, fromOffset);
            waiters.add(d);
            sink.onRequest(n -> d.run());
            sink.onDispose(() -> waiters.remove(d));
        }, FluxSink.OverflowStrategy.ERROR);
    }

    private final class Drain implements Runnable {
        private final FluxSink<Envelope> sink;
        private final AtomicInteger wip = new AtomicInteger();
        private long cursor;

        Drain(FluxSink<Envelope> sink, long from) {
            this.sink = sink;
            this.cursor = from;
        }

        @Override
        public void run() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                try {
                    long wanted;
                    while (!sink.isCancelled() && (wanted = sink.requestedFromDownstream()) > 0) {
                        List<Envelope> batch = reader.read(cursor, (int) Math.min(wanted, BATCH));
                        if (batch.isEmpty()) {
                            break;
                        }
                        for (Envelope e : batch) {
                            sink.next(e);
                            cursor = e.offset() + 1;
                        }
                    }
                } catch (RuntimeException e) {
                    waiters.remove(this);
                    sink.error(e);
                    return;
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }
    }
}
