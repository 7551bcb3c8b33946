package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.Envelope;
import io.kproxy.events.ServiceObserved;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.source.kube.RefusingEventLog;
import io.kproxy.testkit.ServiceFixture;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AppendQueueTest {

    private static final int CAPACITY = 4;

    private static ServiceObserved event(int i) {
        return ServiceFixture.service("ns1", "svc-" + i).resourceVersion(Integer.toString(i)).clusterIP("10.0.0.1").observed();
    }

    private static List<String> names(List<Envelope> records) {
        List<String> out = new ArrayList<>();
        for (Envelope e : records) {
            out.add(((ServiceObserved) e.event()).service().name());
        }
        return out;
    }

    @Test
    void aFullLogBlocksTheProducerAndLosesNothing() throws Exception {
        MemoryEventLog memory = new MemoryEventLog();
        RefusingEventLog log = new RefusingEventLog(memory);
        SourceStats stats = new SourceStats(Clock.systemUTC());
        AppendQueue queue = new AppendQueue(log, "source/kube", CAPACITY, 3, Duration.ofMillis(10), Duration.ofMillis(50), stats);
        queue.start();
        log.full(true);
        AtomicInteger produced = new AtomicInteger();
        CountDownLatch marker = new CountDownLatch(1);
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < 40; i++) {
                    queue.put(event(i));
                    produced.incrementAndGet();
                }
                queue.afterDurable(marker::countDown);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        // While the log refuses, the producer is held back by the bounded queue.
        await().atMost(10, TimeUnit.SECONDS).until(() -> log.refused() >= 5 && queue.depth() == CAPACITY);
        assertThat(produced.get()).isLessThanOrEqualTo(CAPACITY + 3);
        assertThat(memory.nextOffset()).isZero();
        assertThat(stats.snapshot().appendRetries()).isGreaterThanOrEqualTo(4);
        assertThat(stats.snapshot().lastError()).contains("no space left");

        log.full(false);
        assertThat(marker.await(10, TimeUnit.SECONDS)).isTrue();
        producer.join(5_000);

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            expected.add("svc-" + i);
        }
        assertThat(names(memory.read(0, 100))).containsExactlyElementsOf(expected);
        assertThat(stats.snapshot().appended()).isEqualTo(40);
        assertThat(stats.snapshot().failed()).isFalse();
        queue.close(Duration.ofSeconds(1));
    }

    @Test
    void aClosedLogStopsTheSource() throws Exception {
        RefusingEventLog log = new RefusingEventLog(new MemoryEventLog());
        log.failWith(EventLogException.Kind.CLOSED);
        log.full(true);
        SourceStats stats = new SourceStats(Clock.systemUTC());
        AppendQueue queue = new AppendQueue(log, "source/kube", CAPACITY, 3, Duration.ofMillis(10), Duration.ofMillis(50), stats);
        queue.start();
        assertThat(queue.put(event(1))).isTrue();

        await().atMost(5, TimeUnit.SECONDS).until(stats::hasFailed);
        assertThat(log.refused()).isEqualTo(1);
        assertThat(queue.put(event(2))).isFalse();
        assertThat(stats.snapshot().lastError()).contains("event log failed");
        queue.close(Duration.ofSeconds(1));
    }

    @Test
    void closingWhileTheLogRefusesReleasesProducersAndReturns() throws Exception {
        RefusingEventLog log = new RefusingEventLog(new MemoryEventLog());
        log.full(true);
        SourceStats stats = new SourceStats(Clock.systemUTC());
        AppendQueue queue = new AppendQueue(log, "source/kube", CAPACITY, 3, Duration.ofMillis(10), Duration.ofMillis(50), stats);
        queue.start();
        AtomicInteger refusedPut = new AtomicInteger();
        Thread producer = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < 40; i++) {
                    if (!queue.put(event(i))) {
                        refusedPut.incrementAndGet();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await().atMost(10, TimeUnit.SECONDS).until(() -> queue.depth() == CAPACITY);

        long start = System.nanoTime();
        queue.stopAccepting();
        producer.join(5_000);
        queue.close(Duration.ofMillis(300));

        assertThat(producer.isAlive()).isFalse();
        assertThat(refusedPut.get()).isPositive();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(stats.snapshot().appended()).isZero();
    }

    @Test
    void closingAppendsWhatIsQueued() throws Exception {
        MemoryEventLog memory = new MemoryEventLog();
        SourceStats stats = new SourceStats(Clock.systemUTC());
        AppendQueue queue = new AppendQueue(memory, "source/kube", 64, 8, Duration.ofMillis(10), Duration.ofMillis(50), stats);
        List<ClusterEvent> sent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sent.add(event(i));
            queue.put(sent.getLast());
        }
        queue.start();
        queue.close(Duration.ofSeconds(5));
        assertThat(memory.read(0, 100)).extracting(Envelope::event).containsExactlyElementsOf(sent);
        assertThat(memory.read(0, 1).getFirst().source()).isEqualTo("source/kube");
    }
}
