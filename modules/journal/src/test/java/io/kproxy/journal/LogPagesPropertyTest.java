package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.ForwardingEventLog;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded property test of {@link LogPages} over a log that lost random ranges (at its start, in
 * the middle, at its end, on page boundaries): a refusing sweep serves every record of the range
 * or fails naming the first lost range it reaches; a skipping sweep serves exactly the records
 * still held, in bounded pages, and steps over each lost range once; {@link LogPages#beforeLoss}
 * stops before the first loss.
 */
class LogPagesPropertyTest {

    /** A log whose reads fail, as the local journal's do, once they reach one of its lost ranges. */
    static class LosingLog extends ForwardingEventLog {
        final List<long[]> lost = new ArrayList<>();
        /** Whether a read that starts inside a range names the read's offset instead of the range's first. */
        boolean namesReadOffset;
        int reads;

        LosingLog(int records) {
            super(new MemoryEventLog());
            if (records > 0) {
                delegate().append(Fixtures.drafts(0, records)).join();
            }
        }

        LosingLog lose(long first, long last) {
            lost.add(new long[] {first, last});
            return this;
        }

        boolean isLost(long offset) {
            return lost.stream().anyMatch(r -> r[0] <= offset && offset <= r[1]);
        }

        @Override
        public List<Envelope> read(long fromOffset, int max) {
            reads++;
            for (long o = fromOffset; o < Math.min(fromOffset + max, nextOffset()); o++) {
                for (long[] r : lost) {
                    if (r[0] <= o && o <= r[1]) {
                        throw new EventLogException("offsets " + r[0] + ".." + r[1] + " are damaged", namesReadOffset ? o : r[0], r[1]);
                    }
                }
            }
            return super.read(fromOffset, max);
        }
    }

    /** 400 random logs, ranges and page sizes; a failure names the seed that reproduces it alone. */
    @Test
    void sweepsServeExactlyTheRecordsTheLogStillHolds() {
        long base = Long.getLong("kproxy.seed", 20261126L);
        for (int i = 0; i < 400; i++) {
            long seed = base + i;
            try {
                run(new Random(seed));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("case " + i + " failed (rerun it first with -Dkproxy.seed=" + seed + ")", e);
            }
        }
    }

    private static void run(Random r) {
        int n = r.nextInt(40);
        int pageSize = 1 + r.nextInt(8);
        LosingLog log = new LosingLog(n);
        log.namesReadOffset = r.nextBoolean();
        for (long at = r.nextInt(3) == 0 ? 0 : r.nextInt(6); n > 0 && at < n; at += 2 + r.nextInt(12)) {
            long last = Math.min(n - 1, at + r.nextInt(pageSize + 2));
            log.lose(at, last);
            at = last;
        }
        long from = r.nextInt(n + 3);
        long to = r.nextInt(6) == 0 ? Long.MAX_VALUE : from - 2 + r.nextInt(n + 4);
        List<Long> held = new ArrayList<>();
        for (long o = from; o <= Math.min(to, n - 1L); o++) {
            if (!log.isLost(o)) {
                held.add(o);
            }
        }
        long end = Math.max(from, Math.min(to == Long.MAX_VALUE ? n : to + 1, n));
        List<long[]> crossed = log.lost.stream().filter(x -> from <= to && x[1] >= from && x[0] <= Math.min(to, n - 1L)).toList();

        List<EventLogException> told = new ArrayList<>();
        LogPages skipping = LogPages.skipping(log, from, to, pageSize, told::add);
        assertThat(offsets(skipping, pageSize)).isEqualTo(held);
        assertThat(skipping.lostRanges()).isEqualTo(crossed.size()).isEqualTo(told.size());
        assertThat(told.stream().map(EventLogException::lostLast).toList()).isEqualTo(crossed.stream().map(x -> x[1]).toList());
        assertThat(skipping.position()).isEqualTo(crossed.isEmpty() ? end : Math.max(end, crossed.getLast()[1] + 1));

        LogPages refusing = LogPages.refusing(log, from, to, pageSize);
        if (crossed.isEmpty()) {
            assertThat(offsets(refusing, pageSize)).isEqualTo(held);
            assertThat(refusing.position()).isEqualTo(end);
            assertThat(refusing.lostRanges()).isZero();
        } else {
            assertThatThrownBy(() -> offsets(refusing, pageSize)).isInstanceOf(EventLogException.class)
                    .hasMessageContaining(crossed.getFirst()[0] + ".." + crossed.getFirst()[1]);
        }

        int max = 1 + r.nextInt(2 * pageSize);
        if (from < n && log.isLost(from)) {
            assertThatThrownBy(() -> LogPages.beforeLoss(log, from, max)).isInstanceOf(EventLogException.class);
        } else {
            List<Long> want = new ArrayList<>();
            for (long o = from; o < Math.min(n, from + max) && !log.isLost(o); o++) {
                want.add(o);
            }
            assertThat(LogPages.beforeLoss(log, from, max).stream().map(Envelope::offset).toList()).isEqualTo(want);
        }
    }

    /** Every offset a sweep serves, checking that each page is non-empty, bounded and dense. */
    private static List<Long> offsets(LogPages pages, int pageSize) {
        List<Long> out = new ArrayList<>();
        while (pages.hasNext()) {
            List<Envelope> page = pages.next();
            assertThat(page).isNotEmpty().hasSizeLessThanOrEqualTo(pageSize);
            assertThat(page.getLast().offset() - page.getFirst().offset()).isEqualTo(page.size() - 1);
            page.forEach(e -> out.add(e.offset()));
        }
        return out;
    }

    @Test
    void aLostRangeOnAPageBoundaryIsSteppedOverWithoutAShortPage() {
        LosingLog log = new LosingLog(12).lose(4, 7);
        LogPages pages = LogPages.skipping(log, 0, 11, 4, e -> { });
        assertThat(pages.next()).extracting(Envelope::offset).containsExactly(0L, 1L, 2L, 3L);
        assertThat(pages.next()).extracting(Envelope::offset).containsExactly(8L, 9L, 10L, 11L);
        assertThat(pages.hasNext()).isFalse();
        assertThat(pages.position()).isEqualTo(12);
        assertThat(pages.lostRanges()).isEqualTo(1);
    }

    @Test
    void anEmptyRangeReadsNothing() {
        LosingLog log = new LosingLog(5);
        LogPages pages = LogPages.refusing(log, 3, 2, 4);
        assertThat(pages.hasNext()).isFalse();
        assertThat(pages.position()).isEqualTo(3);
        assertThat(log.reads).isZero();
        assertThatThrownBy(pages::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void aSweepPastTheLogsEndStopsAtTheFirstEmptyRead() {
        LosingLog log = new LosingLog(8);
        LogPages pages = LogPages.refusing(log, 0, Long.MAX_VALUE, 8);
        assertThat(pages.next()).hasSize(8);
        assertThat(pages.hasNext()).isFalse();
        assertThat(pages.position()).isEqualTo(8);
        assertThat(log.reads).isEqualTo(2);
    }

    @Test
    void aFailureThatNamesNoRangeIsThrownEvenWhenSkipping() {
        LosingLog log = new LosingLog(4) {
            @Override
            public List<Envelope> read(long fromOffset, int max) {
                throw new EventLogException(EventLogException.Kind.CLOSED, "closed");
            }
        };
        assertThatThrownBy(() -> LogPages.skipping(log, 0, 3, 2, e -> { }).hasNext()).hasMessage("closed");
        assertThatThrownBy(() -> LogPages.beforeLoss(log, 0, 2)).hasMessage("closed");
    }
}
