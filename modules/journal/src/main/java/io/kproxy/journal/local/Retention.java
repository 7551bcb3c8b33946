package io.kproxy.journal.local;

import io.kproxy.journal.RetentionPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the oldest sealed segments that the {@link RetentionPolicy} lets go, never one holding a
 * record newer than the newest sound and usable snapshot (see {@link SnapshotGuard}) (so state can always be rebuilt from a snapshot and
 * the records after it) and never the active segment. Snapshots that no retained record follows
 * are deleted too, except the newest. Thread-safe (serialised by the journal state's lock).
 */
public final class Retention {

    private static final Logger LOG = LoggerFactory.getLogger(Retention.class);

    private final Path dir;
    private final JournalState state;
    private final SnapshotStore snapshots;
    private final RetentionPolicy policy;

    public Retention(Path dir, JournalState state, SnapshotStore snapshots, RetentionPolicy policy) {
        this.dir = dir;
        this.state = state;
        this.snapshots = snapshots;
        this.policy = policy;
    }

    /** Applies the policy at {@code now}; returns how many segments were deleted. Blocks on I/O. */
    public int apply(Instant now) throws IOException {
        if (policy.equals(RetentionPolicy.keepAll())) {
            return 0;
        }
        long covered = snapshots.newestSoundOffset();
        if (covered < 0) {
            return 0;
        }
        List<SegmentRef> removed = new ArrayList<>();
        state.lock().lock();
        try {
            View v = state.view();
            long total = 0;
            for (int i = 0; i < v.size(); i++) {
                total += v.get(i).limit();
            }
            for (int i = 0; i + 1 < v.size(); i++) {
                SegmentRef r = v.get(i);
                long last = Math.max(r.lastOffset(), v.expectedLast(i));
                if (last > covered) {
                    break;
                }
                boolean old = r.isEmpty() || policy.expired(r.lastTime(), now);
                boolean big = total > policy.maxBytes();
                if (!old && !big) {
                    break;
                }
                LOG.info("journal.retention delete segment={} offsets={}..{} lastTime={} bytes={} reason={} newestSnapshot={}",
                        r.segment().name(), r.base(), last, r.lastTime(), r.limit(), old ? "age" : "size", covered);
                removed.add(r);
                total -= r.limit();
            }
            if (removed.isEmpty()) {
                return 0;
            }
            state.replace(v.withoutFirst(removed.size()));
        } finally {
            state.lock().unlock();
        }
        // Snapshots no retained record follows go first: a crash between the two steps must not
        // leave a snapshot older than the first segment, which recovery reports as missing records.
        int snaps = snapshots.deleteOlderThan(state.view().firstOffset() - 1);
        if (snaps > 0) {
            LOG.info("journal.retention deleted snapshots={} olderThanOffset={}", snaps, state.view().firstOffset() - 1);
        }
        List<Segment> gone = new ArrayList<>();
        for (SegmentRef r : removed) {
            Files.deleteIfExists(r.segment().path());
            Files.deleteIfExists(dir.resolve(SegmentFiles.indexName(r.base())));
            gone.add(r.segment());
        }
        SegmentFiles.fsyncDirectory(dir);
        state.retire(gone).forEach(Segment::close);
        return removed.size();
    }
}
