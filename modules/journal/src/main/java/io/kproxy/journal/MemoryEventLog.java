package io.kproxy.journal;

import io.kproxy.events.BatchDecodeException;
import io.kproxy.events.EventCodec;
import io.kproxy.events.Envelope;
import io.kproxy.events.RawRecord;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.Snapshot;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Flux;

/**
 * An {@link EventLog} held in memory: for tests, for {@code render --objects} (objects read from
 * files), and for replays that need no durability. Records pass through {@link EventCodec} on
 * append, so what a reader gets is exactly what a durable log would return. Times are stamped
 * from the given clock and never go backwards. Thread-safe; appends complete immediately.
 */
public final class MemoryEventLog implements EventLog {

    private final Clock clock;
    private final List<byte[]> records = new ArrayList<>();
    private final TreeMap<Long, Snapshot> snapshots = new TreeMap<>();
    private final LiveTail tail = new LiveTail(this::read);
    private Instant last = Instant.EPOCH;
    private boolean closed;

    public MemoryEventLog(Clock clock) {
        this.clock = clock;
    }

    public MemoryEventLog() {
        this(Clock.systemUTC());
    }

    @Override
    public CompletableFuture<List<Long>> append(List<Draft> drafts) {
        List<Long> offsets = new ArrayList<>(drafts.size());
        synchronized (this) {
            if (closed) {
                return CompletableFuture.failedFuture(new EventLogException(EventLogException.Kind.CLOSED, "event log is closed"));
            }
            Instant now = clock.instant();
            if (now.isBefore(last)) {
                now = last;
            }
            last = now;
            for (Draft d : drafts) {
                offsets.add((long) records.size());
                records.add(EventCodec.encode(now, d.source(), d.event()));
            }
        }
        tail.signal();
        return CompletableFuture.completedFuture(List.copyOf(offsets));
    }

    /**
     * {@inheritDoc} Decodes outside the lock (a stored record never changes), in batches on the
     * {@link ReplayDecoder}'s helpers when there are many.
     *
     * @throws io.kproxy.events.EventDecodeException never for records this log encoded itself
     */
    @Override
    public List<Envelope> read(long fromOffset, int max) {
        List<RawRecord> raw = new ArrayList<>();
        synchronized (this) {
            for (long o = Math.max(0, fromOffset); o < records.size() && raw.size() < max; o++) {
                raw.add(new RawRecord(o, records.get((int) o)));
            }
        }
        try {
            return new ArrayList<>(ReplayDecoder.decode(raw)); // a mutable list, as before
        } catch (BatchDecodeException e) {
            throw e.getCause();
        }
    }

    @Override
    public Flux<Envelope> tail(long fromOffset) {
        return tail.from(fromOffset);
    }

    @Override
    public synchronized long nextOffset() {
        return records.size();
    }

    @Override
    public long firstOffset() {
        return 0;
    }

    @Override
    public synchronized OptionalLong offsetAt(Instant time) {
        int lo = 0;
        int hi = records.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            byte[] r = records.get(mid);
            if (EventCodec.peekRecordedAt(r, 0, r.length).isBefore(time)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < records.size() ? OptionalLong.of(lo) : OptionalLong.empty();
    }

    @Override
    public synchronized void storeSnapshot(long offset, byte[] data) {
        snapshots.put(offset, new Snapshot(offset, data));
    }

    @Override
    public synchronized Optional<Snapshot> snapshotAtOrBefore(long offset) {
        Map.Entry<Long, Snapshot> e = snapshots.floorEntry(offset);
        return e == null ? Optional.empty() : Optional.of(e.getValue());
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        tail.fail(new EventLogException(EventLogException.Kind.CLOSED, "event log is closed"));
    }
}
