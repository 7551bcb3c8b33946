package io.kproxy.engine;

import io.kproxy.events.Envelope;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Lets a caller wait for the sync record ({@code SyncApplied} or {@code SyncFailed}) that
 * answers a control record: the admin endpoint appends a pin and answers once the journal says
 * the pinned state was programmed, or why not. Records are seen as the engine folds them, so
 * what a waiter learns is what the journal holds. Thread-safe; never blocks.
 */
final class SyncWatch {

    /** A sync record and its offset in the log. */
    sealed interface Result permits Result.Applied, Result.Failed {

        long offset();

        record Applied(long offset, SyncApplied record) implements Result {
        }

        record Failed(long offset, SyncFailed record) implements Result {
        }
    }

    private record Waiter(long after, Predicate<Envelope> match, CompletableFuture<Result> result) {
    }

    private final List<Waiter> waiters = new ArrayList<>();
    private volatile Result last;

    /**
     * The first sync record at an offset above {@code after} that {@code match} accepts. The
     * caller cancels or times out the future; a completed or cancelled waiter is dropped.
     */
    synchronized CompletableFuture<Result> await(long after, Predicate<Envelope> match) {
        CompletableFuture<Result> f = new CompletableFuture<>();
        waiters.add(new Waiter(after, match, f));
        return f;
    }

    /** Called for every folded record, in log order. */
    void onRecord(Envelope record) {
        Result result;
        if (record.event() instanceof SyncApplied a) {
            result = new Result.Applied(record.offset(), a);
        } else if (record.event() instanceof SyncFailed f) {
            result = new Result.Failed(record.offset(), f);
        } else {
            return;
        }
        last = result;
        List<CompletableFuture<Result>> done = new ArrayList<>();
        synchronized (this) {
            for (Iterator<Waiter> it = waiters.iterator(); it.hasNext();) {
                Waiter w = it.next();
                if (w.result().isDone()) {
                    it.remove();
                } else if (record.offset() > w.after() && w.match().test(record)) {
                    it.remove();
                    done.add(w.result());
                }
            }
        }
        done.forEach(f -> f.complete(result));
    }

    /** The last sync record folded, if any. */
    Optional<Result> last() {
        return Optional.ofNullable(last);
    }

    /** Fails every waiter (the engine stops). */
    void close(Throwable why) {
        List<Waiter> all;
        synchronized (this) {
            all = List.copyOf(waiters);
            waiters.clear();
        }
        all.forEach(w -> w.result().completeExceptionally(why));
    }
}
