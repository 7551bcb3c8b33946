package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ResourceKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WatchdogTest {

    private static final Duration GRACE = Duration.ofSeconds(10);

    private final AtomicLong now = new AtomicLong(1_000);
    private final WatchLiveness liveness = new WatchLiveness(Duration.ofSeconds(20), now::get, () -> 0.0);
    private int resets;
    /** Whether the API server answers; the grace tests keep it unreachable (the grace is then the only path). */
    private boolean reachable;

    /** A kind whose watch state the test sets; a relist starts a list that the test ends. */
    private static final class FakeKind implements WatchedKind {
        boolean watching;
        boolean listing;
        int relists;

        @Override
        public ResourceKind kind() {
            return ResourceKind.SERVICE;
        }

        @Override
        public boolean isWatching() {
            return watching;
        }

        @Override
        public boolean listing() {
            return listing;
        }

        @Override
        public void relist() {
            relists++;
            listing = true;
        }
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    /** Ticks every second for {@code d}. */
    private void run(Watchdog w, Duration d) {
        for (long s = 0; s < d.toSeconds(); s++) {
            advance(Duration.ofSeconds(1));
            w.tick();
        }
    }

    private Watchdog watchdog(FakeKind kind) {
        return new Watchdog(List.of(kind), GRACE, Duration.ofSeconds(40), liveness, now::get, () -> 0.0, Runnable::run, () -> {
            resets++;
            kind.relist();
        }, () -> reachable);
    }

    @Test
    void anOpenWatchOrARunningListIsLeftAlone() {
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        kind.watching = true;
        run(w, Duration.ofSeconds(60));
        kind.watching = false;
        kind.listing = true;
        run(w, Duration.ofSeconds(60));
        assertThat(kind.relists).isZero();
    }

    @Test
    void aWatchClosedLongerThanTheGraceIsRelisted() {
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        run(w, Duration.ofSeconds(10));
        assertThat(kind.relists).isZero();
        run(w, Duration.ofSeconds(2));
        assertThat(kind.relists).isEqualTo(1);
    }

    @Test
    void forcedRelistsBackOffWhileTheWatchStaysClosedAndResetOnceItOpens() {
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        int[] relistAt = new int[5];
        int found = 0;
        for (int second = 1; second <= 200 && found < 5; second++) {
            advance(Duration.ofSeconds(1));
            w.tick();
            if (kind.listing) {
                relistAt[found++] = second;
                kind.listing = false;   // the list succeeds, its watch fails again at once
            }
        }
        // noticed closed at 1 s, relisted after the 10 s grace, then every 10, 20, 40, 40 s (capped)
        assertThat(relistAt).containsExactly(11, 21, 41, 81, 121);

        kind.watching = true;
        w.tick();
        kind.watching = false;
        run(w, Duration.ofSeconds(12));
        assertThat(kind.relists).as("the backoff resets once a watch was open").isEqualTo(6);
    }

    @Test
    void anOpenWatchPastItsRequestsDeadlineResetsTheConnectionsAtOnce() {
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        kind.watching = true;
        // random 0: timeoutSeconds 20, deadline 5 s (the slack's floor) past it
        assertThat(liveness.watchRequested(ResourceKind.SERVICE)).isEqualTo(20);
        run(w, Duration.ofSeconds(25));
        assertThat(kind.relists).as("within timeout + slack").isZero();
        run(w, Duration.ofSeconds(1));
        assertThat(kind.relists).as("a half-open watch, past its deadline").isEqualTo(1);
        assertThat(resets).as("the client's connections are replaced, every kind relisted").isEqualTo(1);
        run(w, Duration.ofSeconds(60));
        assertThat(kind.relists).as("the relist cleared the old request's deadline").isEqualTo(1);
    }

    @Test
    void aWatchClosedAfterA410IsRelistedAfterClientGosBackoffNotTheGrace() {
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        kind.watching = true;
        w.tick();
        kind.watching = false;
        liveness.gone(ResourceKind.SERVICE);
        int[] relistAt = new int[3];
        int found = 0;
        for (int tenth = 1; tenth <= 200 && found < 3; tenth++) {
            advance(Duration.ofMillis(100));
            w.tick();
            if (kind.listing) {
                relistAt[found++] = tenth;
                kind.listing = false;              // the relist's own watch meets a 410 again
                liveness.gone(ResourceKind.SERVICE);
            }
        }
        // random 0: 0.8 s, then 1.6 s, then 3.2 s after each relist's watch closed (ticks of 100 ms)
        assertThat(relistAt).containsExactly(9, 26, 59);
    }

    @Test
    void clientGosBackoffIsJitteredUpToTwiceItsBaseWhichStopsAt30Seconds() {
        Watchdog w = new Watchdog(List.of(), GRACE, Duration.ofSeconds(40), liveness, now::get, () -> 1.0, Runnable::run, () -> { },
                () -> true);
        assertThat(Duration.ofNanos(w.goneBackoffNanos(1))).isEqualTo(Duration.ofMillis(1600));
        assertThat(Duration.ofNanos(w.goneBackoffNanos(20))).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aWatchClosedWhileTheApiServerAnswersIsRelistedAfterFabric8sChanceAndClientGosBackoff() {
        reachable = true;
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        kind.watching = true;
        w.tick();
        kind.watching = false;
        int[] relistAt = new int[3];
        int found = 0;
        for (int tenth = 1; tenth <= 400 && found < 3; tenth++) {
            advance(Duration.ofMillis(100));
            w.tick();
            if (kind.listing) {
                relistAt[found++] = tenth;
                kind.listing = false;              // the relist's watch is refused again
            }
        }
        // noticed closed at tick 1; random 0: 5 s for fabric8's resume + 0.8 s, then each relist's
        // closed watch (noticed a tick later) 5 s + 1.6 s, 5 s + 3.2 s (ticks of 100 ms)
        assertThat(relistAt).containsExactly(59, 126, 209);

        kind.watching = true;
        w.tick();
        kind.watching = false;
        run(w, Duration.ofSeconds(6));
        assertThat(kind.relists).isEqualTo(3);
        run(w, Duration.ofSeconds(1));
        assertThat(kind.relists).as("the backoff resets once a watch was open: 5 s + 0.8 s after it was noticed closed").isEqualTo(4);
    }

    @Test
    void aRoutineResumeWithinTheAllowanceIsNoRelist() {
        reachable = true;
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        for (int i = 0; i < 20; i++) {
            kind.watching = true;
            run(w, Duration.ofSeconds(20));
            kind.watching = false;             // the API server ends the watch at its timeoutSeconds
            run(w, Duration.ofSeconds(4));     // fabric8 resumes it within the allowance
        }
        assertThat(kind.relists).isZero();
    }

    @Test
    void aClosedWatchWaitsWhileTheApiServerIsAwayAndIsRelistedSoonAfterItAnswersAgain() {
        FakeKind kind = new FakeKind();
        Watchdog w = watchdog(kind);
        kind.watching = true;
        w.tick();
        kind.watching = false;
        run(w, Duration.ofSeconds(8));         // unreachable: neither the allowance nor the backoff runs
        assertThat(kind.relists).isZero();
        reachable = true;                       // another kind's request was answered
        run(w, Duration.ofSeconds(1));
        assertThat(kind.relists).as("not at the tick that sees it answering").isZero();
        run(w, Duration.ofSeconds(1));
        assertThat(kind.relists).as("at the first tick 0.8 s after it").isEqualTo(1);
    }
}
