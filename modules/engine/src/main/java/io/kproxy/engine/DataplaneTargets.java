package io.kproxy.engine;

import io.kproxy.journal.spi.EventLog;
import io.kproxy.replay.StateLoader;
import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import io.kproxy.state.Pin;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the {@link DataplaneTarget} of each sync from the live fold: the live state, or, while
 * the fold holds a {@link Pin}, the node state at the pin's offset. That state is rebuilt once
 * per pinned offset ({@link StateLoader#at}: the newest snapshot at or before it plus the records
 * up to it) and kept until another offset is pinned, so every sync under one pin programs the
 * very same state while the live fold moves on.
 *
 * <p>Thread-safe: the sync thread asks for targets, the admin endpoint asks for
 * {@link #stateAt} to check a pin before it is appended (and so warms the cache). Loading blocks
 * on the log's I/O and holds the lock; {@link #get()} without a pin never blocks.
 */
final class DataplaneTargets implements Supplier<DataplaneTarget> {

    private static final Logger LOG = LoggerFactory.getLogger(DataplaneTargets.class);

    /** The state at a pinned offset cannot be rebuilt from what the log still holds. */
    static final class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    private record Cached(long offset, NodeState node) {
    }

    private final EventLog log;
    private final Supplier<FoldedState> live;
    private Cached cached;

    /**
     * @param log  where pinned states are rebuilt from
     * @param live the latest live fold
     */
    DataplaneTargets(EventLog log, Supplier<FoldedState> live) {
        this.log = log;
        this.live = live;
    }

    @Override
    public DataplaneTarget get() {
        FoldedState state = live.get();
        Optional<Pin> pin = state.pin();
        if (pin.isEmpty()) {
            return DataplaneTarget.of(state);
        }
        return DataplaneTarget.pinned(state, pin.get(), stateAt(pin.get().toOffset()));
    }

    /**
     * The node's desired state as the fold of every record up to and including {@code offset}.
     *
     * @throws Unavailable when retention removed records the state needs (no snapshot at or
     *                     before {@code offset} and the log no longer starts at 0) or the log
     *                     does not reach {@code offset}
     */
    synchronized NodeState stateAt(long offset) {
        if (cached != null && cached.offset() == offset) {
            return cached.node();
        }
        if (offset >= log.nextOffset()) {
            throw new Unavailable("offset " + offset + " is past the end of the log (next offset " + log.nextOffset() + ")");
        }
        if (offset < log.firstOffset() && log.snapshotAtOrBefore(offset).isEmpty()) {
            throw new Unavailable("the state at offset " + offset + " can no longer be rebuilt: retention removed the records before "
                    + log.firstOffset() + " and no snapshot covers it");
        }
        StateLoader.Loaded loaded = StateLoader.at(log, offset);
        if (loaded.state().offset() != offset || (loaded.snapshotOffset() < 0 && log.firstOffset() > 0)) {
            throw new Unavailable("the state at offset " + offset + " can no longer be rebuilt from the log (it folds to offset "
                    + loaded.state().offset() + ", the log starts at " + log.firstOffset() + ")");
        }
        cached = new Cached(offset, loaded.state().node());
        LOG.info("decision=pinned-state-loaded to_offset={} snapshot_offset={} synced={}", offset, loaded.snapshotOffset(),
                loaded.state().node().synced());
        return cached.node();
    }
}
