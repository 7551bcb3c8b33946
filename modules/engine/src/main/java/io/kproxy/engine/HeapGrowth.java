package io.kproxy.engine;

import java.util.function.LongSupplier;

/**
 * Keeps the heap the agent holds close to what it held after its last compaction, whatever
 * {@code -Xmx} allows. The serial collector (the launchers' default below about 29,000
 * Services) collects its old generation only when it cannot grow it any further: every young
 * collection promotes what a sync in flight still holds, so between full collections the old
 * generation fills with dead objects and the process's memory climbs toward the cap. Measured at
 * 1,000 Services (docs/benchmarks.md, "Scale", ninth pass): the live data stayed at 22-23 MB
 * over 9,000 changes while the committed heap grew from 37 to 56 MB in 90 s, and a node agent
 * runs for months under a cap sized for peaks (the DaemonSet's 320 MB).
 *
 * <p>So after each sync the sync thread asks {@link #grown()}: true when the committed heap
 * ({@link Engine.Heap#committed()}) has grown past half again (and at least
 * {@value #MIN_GROWTH_MB} MB) over its size after the last compaction, or after the first sync
 * when none came yet; the caller then collects at once, between two syncs. That bounds the heap
 * near 1.5 times the size it compacts to, at the cost of one full collection per that much
 * growth (about 75 ms at 1,000 Services; 420 ms at 10,000, where the bound sits just under the
 * cap and the JVM would have made that collection a little later). When a collection the JVM
 * chose leaves the heap smaller, the bound follows it down. Where the live data itself fills the
 * heap (100,000 Services under their cap) the bound is never reached. Confined to the sync thread.
 */
final class HeapGrowth {

    static final long MIN_GROWTH_MB = 16;

    private final LongSupplier committed;
    private long baseline = -1;

    HeapGrowth(LongSupplier committed) {
        this.committed = committed;
    }

    /** The committed heap above which {@code baseline} calls for a compaction. */
    static long limit(long baseline) {
        return Math.max(baseline + baseline / 2, baseline + (MIN_GROWTH_MB << 20));
    }

    /** After a sync: whether the heap has grown past its bound (the first call only takes the size). */
    boolean grown() {
        long now = committed.getAsLong();
        if (baseline < 0 || now < baseline) {
            baseline = now;
            return false;
        }
        return now > limit(baseline);
    }

    /** After a full collection: the bound starts again from the heap's size now. */
    void compacted() {
        baseline = committed.getAsLong();
    }
}
