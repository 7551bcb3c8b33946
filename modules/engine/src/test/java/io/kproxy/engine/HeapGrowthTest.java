package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bound: half again over the size after the last compaction, at least 16 MB, following the heap down. */
class HeapGrowthTest {

    static final long MB = 1L << 20;

    @Test
    void theFirstSyncSetsTheSizeAndGrowthPastHalfAgainCallsForACompaction() {
        AtomicLong committed = new AtomicLong(40 * MB);
        HeapGrowth heap = new HeapGrowth(committed::get);
        assertThat(heap.grown()).as("the first call only takes the size").isFalse();
        committed.set(60 * MB);
        assertThat(heap.grown()).as("60 MB is not past 40 + 20").isFalse();
        committed.set(61 * MB);
        assertThat(heap.grown()).isTrue();
        committed.set(30 * MB);
        heap.compacted();
        committed.set(46 * MB);
        assertThat(heap.grown()).as("30 + 16 MB: at least 16 MB of growth, more than half of 30").isFalse();
        committed.set(47 * MB);
        assertThat(heap.grown()).isTrue();
    }

    @Test
    void aHeapTheJvmShrankOnItsOwnLowersTheBound() {
        AtomicLong committed = new AtomicLong(300 * MB);
        HeapGrowth heap = new HeapGrowth(committed::get);
        assertThat(heap.grown()).isFalse();
        committed.set(100 * MB);
        assertThat(heap.grown()).isFalse();
        committed.set(151 * MB);
        assertThat(heap.grown()).as("past 100 + 50, though under the first 300").isTrue();
    }

    @Test
    void theLimitIsHalfAgainOrSixteenMegabytes() {
        assertThat(HeapGrowth.limit(20 * MB)).isEqualTo(36 * MB);
        assertThat(HeapGrowth.limit(32 * MB)).isEqualTo(48 * MB);
        assertThat(HeapGrowth.limit(800 * MB)).isEqualTo(1_200 * MB);
    }

    @Test
    void theRuntimesHeapIsMeasured() {
        assertThat(Engine.Heap.runtime().committed()).isPositive().isEqualTo(Runtime.getRuntime().totalMemory());
    }
}
