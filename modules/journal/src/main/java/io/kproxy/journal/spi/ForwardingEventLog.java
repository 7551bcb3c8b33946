package io.kproxy.journal.spi;

import io.kproxy.events.Envelope;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Flux;

/**
 * An {@link EventLog} that passes every call to another one; subclasses override what they
 * observe or change (metrics around appends, a test's refusals, tracking of futures). Threading
 * and blocking are the delegate's; so is closing, unless a subclass overrides {@link #close()}.
 */
public abstract class ForwardingEventLog implements EventLog {

    private final EventLog delegate;

    /** @param delegate the log every call goes to; not null */
    protected ForwardingEventLog(EventLog delegate) {
        if (delegate == null) {
            throw new IllegalArgumentException("delegate is required");
        }
        this.delegate = delegate;
    }

    /** The log every call goes to. */
    protected final EventLog delegate() {
        return delegate;
    }

    @Override
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
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
        return delegate.firstOffset();
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
