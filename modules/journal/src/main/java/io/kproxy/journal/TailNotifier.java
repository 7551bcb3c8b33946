package io.kproxy.journal;

import io.kproxy.events.Envelope;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Flux;

/**
 * Wakes the journal's live tails on a thread of its own, so that the writer thread never runs
 * subscriber code (a slow subscriber would otherwise delay every commit). Wake-ups coalesce: many
 * commits while the tails are busy cost one wake-up. Thread-safe; {@link #signal()} never blocks.
 */
final class TailNotifier {

    private final LiveTail tail;
    private final ExecutorService executor;
    private final AtomicBoolean scheduled = new AtomicBoolean();

    TailNotifier(LiveTail.RangeReader reader, String threadName) {
        this.tail = new LiveTail(reader);
        this.executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name(threadName).factory());
    }

    void signal() {
        if (!scheduled.getAndSet(true)) {
            try {
                executor.execute(() -> {
                    scheduled.set(false);
                    tail.signal();
                });
            } catch (RejectedExecutionException closing) {
                scheduled.set(false);
            }
        }
    }

    Flux<Envelope> tail(long from) {
        return tail.from(from);
    }

    void close(Throwable error) {
        executor.shutdown();
        tail.fail(error);
    }
}
