package io.kproxy.engine;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLog;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Times and offsets of a log, as the rollback commands mean them. <b>The state at time T</b> is
 * the fold of every record the log accepted at or before T: its offset is that of the last
 * record whose {@code recordedAt} is at or before T ({@link #lastAtOrBefore}). A T before the
 * first record the log still holds has no state. Stateless; blocks on the log's I/O.
 */
public final class LogTimes {

    private LogTimes() {
    }

    /**
     * The offset of the last record recorded at or before {@code time}, or empty when the log
     * holds none (it is empty, or its first record is later). Records' times never go backwards
     * ({@link Envelope#recordedAt()}), so this is {@link EventLog#offsetAt} of the next instant,
     * minus one.
     */
    public static OptionalLong lastAtOrBefore(EventLog log, Instant time) {
        OptionalLong after = time.equals(Instant.MAX) ? OptionalLong.empty() : log.offsetAt(time.plusNanos(1));
        long candidate = after.isPresent() ? after.getAsLong() - 1 : log.nextOffset() - 1;
        return candidate < Math.max(0, log.firstOffset()) ? OptionalLong.empty() : OptionalLong.of(candidate);
    }

    /** When the record at {@code offset} was recorded, or empty when the log no longer (or not yet) holds it. */
    public static Optional<Instant> recordedAt(EventLog log, long offset) {
        if (offset < log.firstOffset() || offset >= log.nextOffset()) {
            return Optional.empty();
        }
        List<Envelope> one = log.read(offset, 1);
        return one.isEmpty() || one.getFirst().offset() != offset ? Optional.empty() : Optional.of(one.getFirst().recordedAt());
    }
}
