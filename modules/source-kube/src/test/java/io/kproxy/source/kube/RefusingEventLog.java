package io.kproxy.source.kube;

import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.ForwardingEventLog;
import io.kproxy.journal.spi.EventLogException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only: an {@link EventLog} that refuses appends with {@code FULL} (a full disk) while
 * told to, and otherwise passes everything to the wrapped log; it can also pretend that
 * retention removed the log's beginning. Thread-safe.
 */
public final class RefusingEventLog extends ForwardingEventLog {

    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile EventLogException.Kind failure = EventLogException.Kind.FULL;
    private volatile long firstOffset = -1;

    public RefusingEventLog(EventLog delegate) {
        super(delegate);
    }

    /** Refuse (true) or accept (false) every append from now on. */
    public void full(boolean on) {
        full.set(on);
    }

    /** The kind of refusal (FULL by default). */
    public void failWith(EventLogException.Kind kind) {
        failure = kind;
    }

    /** Pretends retention removed every record before {@code offset}. */
    public void pretendFirstOffset(long offset) {
        firstOffset = offset;
    }

    public int refused() {
        return refused.get();
    }

    @Override
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
        if (full.get()) {
            refused.incrementAndGet();
            return CompletableFuture.failedFuture(new EventLogException(failure, "no space left on device (test)"));
        }
        return super.append(drafts);
    }

    @Override
    public long firstOffset() {
        return firstOffset >= 0 ? firstOffset : super.firstOffset();
    }
}
