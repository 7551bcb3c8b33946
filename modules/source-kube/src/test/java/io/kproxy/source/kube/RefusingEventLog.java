package io.kproxy.source.kube;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.Snapshot;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;

/**
 * Test-only: an {@link EventLog} that refuses appends with {@code FULL} (a full disk) while
 * told to, and otherwise passes everything to the wrapped log; it can also pretend that
 * retention removed the log's beginning. Thread-safe.
 */
public final class RefusingEventLog implements EventLog {

    private final EventLog delegate;
    private final AtomicBoolean full = new AtomicBoolean();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile EventLogException.Kind failure = EventLogException.Kind.FULL;
    private volatile long firstOffset = -1;

    public RefusingEventLog(EventLog delegate) {
        this.delegate = delegate;
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
        return delegate.append(drafts);
    }

    @Override
    public List<Envelope> read(long fromOffset, int max) {
        return delegate.read(fromOffset, max);
    }

    @Override
    public Flux<Envelope> tail(long fromOffset) {
        return delegate.tail(fromOffset);
    }

    @Override
    public long nextOffset() {
        return delegate.nextOffset();
    }

    @Override
    public long firstOffset() {
        return firstOffset >= 0 ? firstOffset : delegate.firstOffset();
    }

    @Override
    public OptionalLong offsetAt(Instant time) {
        return delegate.offsetAt(time);
    }

    @Override
    public void storeSnapshot(long offset, byte[] data) {
        delegate.storeSnapshot(offset, data);
    }

    @Override
    public Optional<Snapshot> snapshotAtOrBefore(long offset) {
        return delegate.snapshotAtOrBefore(offset);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
