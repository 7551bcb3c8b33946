package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The recorder keeps order, pushes back when full, and finishes its queue on close. */
class RecorderTest {

    @Test
    void runsInOrderAndBlocksTheSubmitterWhileFull() throws Exception {
        Recorder r = Recorder.thread("test-recorder", 1);
        List<Integer> done = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        r.submit(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.add(1);
        });
        r.submit(() -> done.add(2)); // fills the one slot
        AtomicBoolean thirdAccepted = new AtomicBoolean();
        Thread submitter = Thread.ofPlatform().start(() -> {
            r.submit(() -> done.add(3));
            thirdAccepted.set(true);
        });
        submitter.join(300);
        assertThat(thirdAccepted).as("the submitter waits while the queue is full").isFalse();
        release.countDown();
        submitter.join(5_000);
        assertThat(thirdAccepted).isTrue();
        r.close(Duration.ofSeconds(5));
        assertThat(done).containsExactly(1, 2, 3);
    }

    @Test
    void aFailingTaskDoesNotStopTheOthers() throws Exception {
        Recorder r = Recorder.thread("test-recorder", 4);
        CountDownLatch ran = new CountDownLatch(1);
        r.submit(() -> {
            throw new IllegalStateException("boom");
        });
        r.submit(ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        r.close(Duration.ofSeconds(5));
    }
}
