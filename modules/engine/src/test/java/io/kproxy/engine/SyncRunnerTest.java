package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The runner's guarantees on virtual time, case by case as upstream's
 * {@code bounded_frequency_runner_test.go}: minimum interval from the end of a run, maximum
 * interval, retry, coalescing, and requests before start.
 */
class SyncRunnerTest {

    private static final Duration MIN = Duration.ofSeconds(1);
    private static final Duration RETRY = Duration.ofSeconds(10);
    private static final Duration MAX = Duration.ofSeconds(60);

    private VirtualTimeScheduler vts;
    private final List<Long> starts = new ArrayList<>();
    private final Deque<SyncRunner.Outcome> outcomes = new ArrayDeque<>();
    private long runTakesMillis;
    private long extraNanos;
    private SyncRunner runner;

    /** Virtual time plus what the function "spent" (a run takes time without the scheduler moving). */
    private final EngineClock clock = new EngineClock() {
        @Override
        public Instant now() {
            return Instant.ofEpochSecond(0, nanoTime());
        }

        @Override
        public long nanoTime() {
            return vts.now(TimeUnit.NANOSECONDS) + extraNanos;
        }
    };

    @BeforeEach
    void setUp() {
        vts = VirtualTimeScheduler.create();
        runner = new SyncRunner("test", () -> {
            starts.add(clock.nanoTime() / 1_000_000);
            extraNanos += runTakesMillis * 1_000_000;
            return outcomes.isEmpty() ? SyncRunner.Outcome.succeeded() : outcomes.removeFirst();
        }, MIN, RETRY, MAX, vts, clock);
    }

    @AfterEach
    void tearDown() {
        runner.close(Duration.ofSeconds(1));
        vts.dispose();
    }

    private void advance(long millis) {
        vts.advanceTimeBy(Duration.ofMillis(millis));
    }

    @Test
    void requestsBeforeStartAreDropped() {
        runner.run();
        advance(5_000);
        assertThat(starts).isEmpty();
        runner.start();
        runner.run();
        assertThat(starts).containsExactly(5_000L);
    }

    @Test
    void firstRunIsImmediateAndLaterOnesWaitTheMinimumIntervalFromTheEnd() {
        runner.start();
        runTakesMillis = 300;
        runner.run();
        assertThat(starts).containsExactly(0L);
        // The run ended at 300 ms; a request at once waits until 300 + 1000.
        runner.run();
        advance(1_299 - 300);
        assertThat(starts).hasSize(1);
        advance(1);
        assertThat(starts).containsExactly(0L, 1_300L);
    }

    @Test
    void requestsDuringTheCooldownCoalesceIntoOneRun() {
        runner.start();
        runner.run();
        for (int i = 0; i < 50; i++) {
            advance(10);
            runner.run();
        }
        advance(2_000);
        assertThat(starts).containsExactly(0L, 1_000L);
    }

    @Test
    void aRequestAfterTheCooldownRunsAtOnce() {
        runner.start();
        runner.run();
        advance(5_000);
        runner.run();
        assertThat(starts).containsExactly(0L, 5_000L);
    }

    @Test
    void runsAtLeastEveryMaximumIntervalFromTheEndOfTheLastRun() {
        runner.start();
        advance(59_999);
        assertThat(starts).isEmpty();
        advance(1);
        assertThat(starts).containsExactly(60_000L);
        advance(30_000);
        runner.run();
        advance(60_000);
        assertThat(starts).containsExactly(60_000L, 90_000L, 150_000L);
    }

    @Test
    void aFailedRunIsRetriedAfterTheDelayItAsksFor() {
        runner.start();
        outcomes.add(new SyncRunner.Outcome.Failed(Duration.ofSeconds(2)));
        outcomes.add(new SyncRunner.Outcome.Failed(Duration.ofSeconds(4)));
        runner.run();
        advance(10_000);
        assertThat(starts).containsExactly(0L, 2_000L, 6_000L);
    }

    @Test
    void theRetryDelayIsCappedAtTheRetryInterval() {
        runner.start();
        outcomes.add(new SyncRunner.Outcome.Failed(Duration.ofSeconds(30)));
        runner.run();
        advance(30_000);
        assertThat(starts).containsExactly(0L, 10_000L);
    }

    @Test
    void aRequestBeforeTheRetryRunsSoonerAndItsSuccessCancelsTheRetry() {
        runner.start();
        outcomes.add(new SyncRunner.Outcome.Failed(Duration.ofSeconds(8)));
        runner.run();
        advance(3_000);
        runner.run();
        advance(20_000);
        assertThat(starts).containsExactly(0L, 3_000L);
    }

    @Test
    void aFollowUpRunsLaterUnlessSomethingRanBefore() {
        runner.start();
        outcomes.add(new SyncRunner.Outcome.Succeeded(Optional.of(Duration.ofMillis(1_500))));
        runner.run();
        advance(1_499);
        assertThat(starts).hasSize(1);
        advance(1);
        assertThat(starts).containsExactly(0L, 1_500L);
    }

    @Test
    void aFunctionThatThrowsIsRetriedAfterTheRetryInterval() {
        List<Long> at = new ArrayList<>();
        SyncRunner throwing = new SyncRunner("throwing", () -> {
            at.add(clock.nanoTime() / 1_000_000);
            throw new IllegalStateException("boom");
        }, MIN, RETRY, MAX, vts, clock);
        throwing.start();
        throwing.run();
        advance(10_000);
        throwing.close(Duration.ofSeconds(1));
        assertThat(at).containsExactly(0L, 10_000L);
    }

    @Test
    void nothingRunsAfterClose() {
        runner.start();
        runner.close(Duration.ofSeconds(1));
        runner.run();
        advance(120_000);
        assertThat(starts).isEmpty();
    }

    @Test
    void refusesAMaximumBelowTheMinimum() {
        assertThatThrownBy(() -> new SyncRunner("bad", SyncRunner.Outcome::succeeded, Duration.ofSeconds(2), RETRY, Duration.ofSeconds(1),
                vts, clock)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxInterval");
    }

    @Test
    void zeroMinimumRunsEveryRequestAsItComes() {
        SyncRunner eager = new SyncRunner("eager", () -> {
            starts.add(clock.nanoTime() / 1_000_000);
            return SyncRunner.Outcome.succeeded();
        }, Duration.ZERO, RETRY, MAX, vts, clock);
        eager.start();
        for (int i = 0; i < 3; i++) {
            eager.run();
            advance(50);
        }
        eager.close(Duration.ofSeconds(1));
        assertThat(starts).containsExactly(0L, 50L, 100L);
    }
}
