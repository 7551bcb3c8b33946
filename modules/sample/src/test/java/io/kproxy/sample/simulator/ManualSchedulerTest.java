package io.kproxy.sample.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;

class ManualSchedulerTest {

    private static final Instant T0 = Instant.parse("2026-11-22T03:00:00Z");

    @Test
    void dueTasksRunAtOnceAndDelayedOnesInTimeOrderThenSchedulingOrder() {
        ManualScheduler s = new ManualScheduler(T0);
        List<String> ran = new ArrayList<>();
        s.schedule(() -> ran.add("now"));
        assertThat(ran).containsExactly("now");
        Scheduler.Worker w = s.createWorker();
        w.schedule(() -> ran.add("b@2s"), 2, TimeUnit.SECONDS);
        w.schedule(() -> ran.add("a@1s"), 1, TimeUnit.SECONDS);
        w.schedule(() -> ran.add("c@2s"), 2, TimeUnit.SECONDS);
        s.advanceTo(T0.plusMillis(1500));
        assertThat(ran).containsExactly("now", "a@1s");
        assertThat(s.instant()).isEqualTo(T0.plusMillis(1500));
        s.advanceTo(T0.plusSeconds(5));
        assertThat(ran).containsExactly("now", "a@1s", "b@2s", "c@2s");
        s.advanceTo(T0);
        assertThat(s.instant()).as("time never goes back").isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void aTaskSeesItsOwnTimeAndWorkThatTakesTimeDelaysWhatFollows() {
        ManualScheduler s = new ManualScheduler(T0);
        List<Instant> seen = new ArrayList<>();
        s.schedule(() -> {
            seen.add(s.instant());
            s.advanceBy(Duration.ofMillis(300));
            s.schedule(() -> seen.add(s.instant()), 100, TimeUnit.MILLISECONDS);
        }, 1, TimeUnit.SECONDS);
        s.advanceTo(T0.plusSeconds(10));
        assertThat(seen).containsExactly(T0.plusSeconds(1), T0.plusMillis(1400));
        assertThat(s.now(TimeUnit.MILLISECONDS)).isEqualTo(T0.plusSeconds(10).toEpochMilli());
    }

    @Test
    void periodicTasksRunEveryPeriodUntilDisposed() {
        ManualScheduler s = new ManualScheduler(T0);
        List<Instant> ran = new ArrayList<>();
        Disposable d = s.schedulePeriodically(() -> ran.add(s.instant()), 1, 30, TimeUnit.SECONDS);
        s.advanceTo(T0.plusSeconds(100));
        assertThat(ran).containsExactly(T0.plusSeconds(1), T0.plusSeconds(31), T0.plusSeconds(61), T0.plusSeconds(91));
        d.dispose();
        s.advanceTo(T0.plusSeconds(200));
        assertThat(ran).hasSize(4);
        Scheduler.Worker w = s.createWorker();
        w.schedulePeriodically(() -> ran.add(s.instant()), 0, 10, TimeUnit.SECONDS);
        assertThat(ran).hasSize(5);
        w.dispose();
        s.advanceTo(T0.plusSeconds(300));
        assertThat(ran).hasSize(5);
    }

    @Test
    void cancelledTasksAndDisposedWorkersDoNotRun() {
        ManualScheduler s = new ManualScheduler(T0);
        List<String> ran = new ArrayList<>();
        Disposable d = s.schedule(() -> ran.add("cancelled"), 1, TimeUnit.SECONDS);
        Scheduler.Worker w = s.createWorker();
        w.schedule(() -> ran.add("worker"), 1, TimeUnit.SECONDS);
        d.dispose();
        w.dispose();
        s.advanceTo(T0.plusSeconds(2));
        assertThat(ran).isEmpty();
        assertThatThrownBy(() -> w.schedule(() -> ran.add("late"))).isInstanceOf(RejectedExecutionException.class);
        s.dispose();
        assertThatThrownBy(() -> s.schedule(() -> ran.add("late"))).isInstanceOf(RejectedExecutionException.class);
    }
}
