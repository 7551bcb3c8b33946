package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.EventRecorderOptions;
import io.kproxy.source.kube.ObjectRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** With an API server that never answers, recording stays instant, the queue stays bounded, and close gives up in time. */
class ApiEventRecorderTest {

    /** Takes the first write and never returns from it (until interrupted). */
    private static final class HangingWriter implements EventWriter {
        final CountDownLatch entered = new CountDownLatch(1);
        final AtomicInteger creates = new AtomicInteger();

        @Override
        public WrittenEvent create(ApiEvent event, Instant now) throws EventWriteException {
            creates.incrementAndGet();
            entered.countDown();
            try {
                Thread.sleep(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new EventWriteException("no answer: interrupted", true);
        }

        @Override
        public void updateSeries(WrittenEvent written, int count, Instant lastObserved) {
        }

        @Override
        public void close() {
        }
    }

    /** A queue of 3, one attempt, and {@code closeTimeout} for the queued Events at the close. */
    private static EventRecorderOptions options(Duration closeTimeout) {
        return new EventRecorderOptions("kube-proxy", "kube-proxy-h", 3, 25, Duration.ofSeconds(5), Duration.ofMinutes(6),
                Duration.ofMillis(50), 1, Duration.ofMillis(10), closeTimeout);
    }

    @Test
    void aHangingApiServerNeverHoldsTheCallerAndCloseCountsWhatItDrops() throws Exception {
        HangingWriter writer = new HangingWriter();
        EventRecorderOptions options = options(Duration.ofMillis(300));
        ApiEventRecorder r = new ApiEventRecorder(writer, options, Clock.systemUTC());
        r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node("n")));
        writer.entered.await();

        long t0 = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            r.record(ApiEvent.warning("FailedToStartServiceHealthcheck", "Listen", "taken", ObjectRef.service("ns", "s" + i)));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(100));
        assertThat(r.dropped()).as("3 wait, 7 are over the queue's capacity").isEqualTo(7);

        long c0 = System.nanoTime();
        r.close();
        assertThat(Duration.ofNanos(System.nanoTime() - c0)).isLessThan(Duration.ofSeconds(2));
        assertThat(r.dropped()).as("the 3 queued and the one cut short").isEqualTo(11);
        assertThat(writer.creates).hasValue(1);
        r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node("n")));
        await().atMost(Duration.ofSeconds(1)).until(() -> r.dropped() == 12);
    }

    @Test
    void theWriterIsBuiltOnTheRecordersThreadAndAFailedBuildDropsEveryEvent() throws Exception {
        EventRecorderOptions options = options(Duration.ofMillis(300));
        CountDownLatch release = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<String> builtOn = new java.util.concurrent.atomic.AtomicReference<>();
        long t0 = System.nanoTime();
        ApiEventRecorder r = new ApiEventRecorder(() -> {
            builtOn.set(Thread.currentThread().getName());
            try {
                release.await(10, java.util.concurrent.TimeUnit.SECONDS); // bounded: a build on the caller's thread fails, not hangs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("no client here");
        }, options, Clock.systemUTC());
        r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node("n")));
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("the caller does not wait for the client").isLessThan(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> builtOn.get() != null);
        assertThat(builtOn.get()).isEqualTo("kproxy-events");
        assertThat(r.dropped()).isZero();
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> r.dropped() == 1);
        r.record(ApiEvent.normal("Starting", "StartKubeProxy", "", ObjectRef.node("n")));
        await().atMost(Duration.ofSeconds(5)).until(() -> r.dropped() == 2);
        r.close();
        assertThat(r.dropped()).isEqualTo(2);
    }

    @Test
    void aWriterBuiltAfterTheCloseIsClosedAtOnce() throws Exception {
        EventRecorderOptions options = options(Duration.ofMillis(100));
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        long t0 = System.nanoTime();
        ApiEventRecorder r = new ApiEventRecorder(() -> {
            boolean interrupted = false;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos(); // bounded: a build on the caller's thread fails, not hangs
            while (System.nanoTime() < deadline) { // deaf to the close's interrupt, as a client being built can be
                try {
                    if (release.await(deadline - System.nanoTime(), java.util.concurrent.TimeUnit.NANOSECONDS)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return new EventWriter() {
                @Override
                public WrittenEvent create(ApiEvent event, Instant now) throws EventWriteException {
                    throw new EventWriteException("never written", false);
                }

                @Override
                public void updateSeries(WrittenEvent written, int count, Instant lastObserved) {
                }

                @Override
                public void close() {
                    closed.countDown();
                }
            };
        }, options, Clock.systemUTC());
        r.close(); // the close timeout passes while the client is still being built
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("neither the start nor the close waited for the client")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(closed.getCount()).as("no writer yet to close").isEqualTo(1);
        release.countDown();
        assertThat(closed.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }
}
