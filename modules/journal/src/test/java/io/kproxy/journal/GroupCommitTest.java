package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.journal.Fixtures.MutableClock;
import io.kproxy.journal.local.FileSync;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Group commit: nothing is acknowledged or visible before its fsync returned; failures keep nothing. */
class GroupCommitTest {

    @TempDir
    Path tmp;

    private JournalOptions options(Duration window) {
        return JournalOptions.defaults(tmp.resolve("j")).withFsyncWindow(window).withSegmentBytes(8192)
                .withClock(new MutableClock(Instant.parse("2025-01-01T00:00:00Z")));
    }

    @Test
    void noAppendIsAcknowledgedOrReadableBeforeItsFsyncReturns() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FileSync blocking = ch -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ch.force(false);
        };
        try (LocalJournal j = LocalJournal.open(options(Duration.ZERO), blocking)) {
            CompletableFuture<Long> f = j.append("src", Fixtures.event(0));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(50);
            assertThat(f).isNotDone();
            assertThat(j.nextOffset()).isZero();
            assertThat(j.read(0, 10)).isEmpty();
            release.countDown();
            assertThat(f.get(5, TimeUnit.SECONDS)).isZero();
            assertThat(j.read(0, 10)).hasSize(1);
        }
    }

    @Test
    void concurrentAppendsShareFsyncs() throws Exception {
        AtomicInteger syncs = new AtomicInteger();
        FileSync counting = ch -> {
            syncs.incrementAndGet();
            ch.force(false);
        };
        int threads = 4;
        int perThread = 500;
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        try (LocalJournal j = LocalJournal.open(options(Duration.ofMillis(2)).withSegmentBytes(1 << 20), counting)) {
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * perThread;
                ts.add(Thread.ofPlatform().start(() -> {
                    for (int k = 0; k < perThread; k++) {
                        CompletableFuture<Long> f = j.append("t", Fixtures.event(base + k));
                        synchronized (futures) {
                            futures.add(f);
                        }
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
            Set<Long> offsets = new TreeSet<>();
            for (CompletableFuture<Long> f : futures) {
                offsets.add(f.get(10, TimeUnit.SECONDS));
            }
            assertThat(offsets).hasSize(threads * perThread).first().isEqualTo(0L);
            assertThat(((TreeSet<Long>) offsets).last()).isEqualTo(threads * perThread - 1L);
            assertThat(syncs.get()).as("fsyncs for %d appends", threads * perThread).isLessThan(threads * perThread / 5);
        }
    }

    @Test
    void aFailedFsyncFailsTheAppendKeepsNothingAndTheJournalGoesOn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FileSync failsOnce = ch -> {
            if (calls.incrementAndGet() == 2) {
                throw new IOException("No space left on device");
            }
            ch.force(false);
        };
        JournalOptions opts = options(Duration.ZERO);
        try (LocalJournal j = LocalJournal.open(opts, failsOnce)) {
            assertThat(j.append("src", Fixtures.event(0)).get()).isZero();
            assertThatThrownBy(() -> j.append("src", Fixtures.event(1)).join()).cause().isInstanceOf(EventLogException.class)
                    .satisfies(t -> {
                        EventLogException e = (EventLogException) t;
                        assertThat(e.kind()).isEqualTo(Kind.FULL);
                        assertThat(e.retryable()).isTrue();
                        assertThat(e).hasMessageContaining("no space left").hasMessageContaining("not kept");
                    });
            assertThat(j.nextOffset()).isEqualTo(1);
            assertThat(j.append("src", Fixtures.event(2)).get()).isEqualTo(1L); // offsets stay dense
        }
        try (LocalJournal j = LocalJournal.open(opts)) {
            assertThat(j.openProblems()).isEmpty(); // the failed bytes were truncated, not left as a torn tail
            assertThat(j.read(0, 10)).extracting(e -> e.event()).containsExactly(Fixtures.event(0), Fixtures.event(2));
        }
    }

    @Test
    void appendsDurableBeforeAFailureInTheSameBatchSucceedTheRestFail() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        FileSync sync = ch -> {
            int n = calls.incrementAndGet();
            if (n == 1) {
                try {
                    hold.await(); // let a batch pile up behind the first append
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (n == 3) {
                throw new IOException("Input/output error");
            }
            ch.force(false);
        };
        JournalOptions opts = options(Duration.ZERO).withSegmentBytes(2048);
        List<CompletableFuture<Long>> fs = new ArrayList<>();
        try (LocalJournal j = LocalJournal.open(opts, sync)) {
            fs.add(j.append("src", Fixtures.event(0)));
            Thread.sleep(50);
            for (int i = 1; i < 30; i++) {
                fs.add(j.append("src", Fixtures.event(i))); // one batch, larger than a segment: it rolls inside
            }
            hold.countDown();
            int ok = 0;
            for (CompletableFuture<Long> f : fs) {
                try {
                    assertThat(f.get(5, TimeUnit.SECONDS)).isEqualTo((long) ok);
                    ok++;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(((EventLogException) e.getCause()).kind()).isEqualTo(Kind.UNAVAILABLE);
                }
            }
            assertThat(ok).isBetween(2, 29);
            assertThat(j.nextOffset()).isEqualTo(ok);
            for (int i = 0; i < ok; i++) {
                assertThat(fs.get(i)).isCompletedWithValue((long) i); // the durable ones are a prefix
            }
            assertThat(j.read(0, 100)).hasSize(ok);
        }
        try (LocalJournal j = LocalJournal.open(opts)) {
            assertThat(j.nextOffset()).isEqualTo(fs.stream().filter(f -> !f.isCompletedExceptionally()).count());
            assertThat(JournalInspector.of(j).verify()).isEmpty();
        }
    }

    @Test
    void aFailureThatCannotBeUndoneStopsTheWriterUntilReopened() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        FileSync sync = ch -> {
            if (calls.incrementAndGet() >= 2) {
                throw new IOException("Input/output error");
            }
            ch.force(false);
        };
        JournalOptions opts = options(Duration.ZERO);
        try (LocalJournal j = LocalJournal.open(opts, sync)) {
            assertThat(j.append("src", Fixtures.event(0)).get()).isZero();
            assertThatThrownBy(() -> j.append("src", Fixtures.event(1)).join()).cause().hasMessageContaining("reopen");
            assertThatThrownBy(() -> j.append("src", Fixtures.event(2)).join()).cause().isInstanceOf(EventLogException.class)
                    .hasMessageContaining("reopen");
            assertThat(j.read(0, 10)).hasSize(1);
        }
        try (LocalJournal j = LocalJournal.open(opts)) {
            assertThat(j.read(0, 10)).extracting(e -> e.event()).startsWith(Fixtures.event(0));
            long next = j.nextOffset();
            assertThat(j.append("src", Fixtures.event(3)).get()).isEqualTo(next);
        }
    }
}
