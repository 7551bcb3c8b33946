package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.EventLogException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/** Live tails while appending: every record once, in order, as soon as durable; backpressure honoured. */
class LiveTailIT {

    @TempDir
    Path tmp;

    private LocalJournal open() {
        return LocalJournal.open(JournalOptions.defaults(tmp.resolve("j")).withSegmentBytes(64 << 10).withFsyncWindow(Duration.ofMillis(1)));
    }

    @Test
    void tailsSeeEveryRecordInOrderWhileTwoThreadsAppend() throws Exception {
        int perThread = 2_500;
        try (LocalJournal j = open()) {
            j.append(Fixtures.drafts(0, 100)).join(); // history before the subscription
            List<Envelope> fast = new CopyOnWriteArrayList<>();
            List<Envelope> slow = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(2);
            long total = 100 + 2L * perThread;
            Disposable a = j.tail(0).publishOn(Schedulers.boundedElastic(), 32).subscribe(e -> {
                fast.add(e);
                if (e.offset() == total - 1) {
                    done.countDown();
                }
            });
            Disposable b = j.tail(50).limitRate(7).publishOn(Schedulers.single(), 8).subscribe(e -> {
                slow.add(e);
                if (e.offset() % 500 == 0) {
                    sleep(5); // a slow consumer must not slow the writer or lose records
                }
                if (e.offset() == total - 1) {
                    done.countDown();
                }
            });
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                writers.add(Thread.ofPlatform().start(() -> {
                    for (int k = 0; k < perThread; k++) {
                        j.append("w", Fixtures.event(k % 50));
                    }
                }));
            }
            for (Thread w : writers) {
                w.join();
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).as("tails caught up: fast=%d slow=%d", fast.size(), slow.size()).isTrue();
            a.dispose();
            b.dispose();
            assertThat(fast).extracting(Envelope::offset).containsExactlyElementsOf(LocalJournalTest.range(0, total));
            assertThat(slow).extracting(Envelope::offset).containsExactlyElementsOf(LocalJournalTest.range(50, total));
            assertThat(fast).isEqualTo(j.read(0, Integer.MAX_VALUE));
        }
    }

    @Test
    void aTailDeliversOnlyWhatWasRequested() {
        try (LocalJournal j = open()) {
            j.append(Fixtures.drafts(0, 20)).join();
            StepVerifier.create(j.tail(0), 3)
                    .expectNextMatches(e -> e.offset() == 0).expectNextCount(2)
                    .expectNoEvent(Duration.ofMillis(100))
                    .thenRequest(17).expectNextCount(17)
                    .then(() -> j.append("late", Fixtures.event(20)).join())
                    .expectNoEvent(Duration.ofMillis(100)) // durable, but not requested
                    .thenRequest(1).expectNextMatches(e -> e.offset() == 20 && e.source().equals("late"))
                    .thenCancel().verify(Duration.ofSeconds(10));
        }
    }

    @Test
    void closingTheJournalEndsTailsWithAnError() throws Exception {
        LocalJournal j = open();
        j.append(Fixtures.drafts(0, 3)).join();
        CountDownLatch failed = new CountDownLatch(1);
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        j.tail(0).subscribe(new BaseSubscriber<Envelope>() {
            @Override
            protected void hookOnError(Throwable t) {
                errors.add(t);
                failed.countDown();
            }
        });
        j.close();
        assertThat(failed.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(errors.getFirst()).isInstanceOf(EventLogException.class).extracting(t -> ((EventLogException) t).kind())
                .isEqualTo(EventLogException.Kind.CLOSED);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
