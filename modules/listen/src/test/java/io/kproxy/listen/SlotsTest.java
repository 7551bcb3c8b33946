package io.kproxy.listen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The cap, the eviction order and the deadlines of {@link Slots}, on stand-in connections. */
class SlotsTest {

    private static final Limits LIMITS = Limits.HTTP.withMaxConnections(3).withTimeouts(Duration.ofMillis(300), Duration.ofMillis(300),
            Duration.ofMillis(300));

    private static final class Conn implements Closeable {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void aFullSetEvictsTheConnectionWaitingLongestAndNeverABusyOne() throws Exception {
        try (Slots slots = new Slots("t", LIMITS)) {
            List<Conn> conns = new ArrayList<>();
            List<Slots.Slot> admitted = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Conn c = new Conn();
                conns.add(c);
                admitted.add(slots.admit(c, Duration.ofSeconds(10)).orElseThrow());
                Thread.sleep(5);
            }
            admitted.get(0).busy(Duration.ofSeconds(10)); // being answered: never evicted
            Conn fourth = new Conn();
            assertThat(slots.admit(fourth, Duration.ofSeconds(10))).isPresent();
            assertThat(conns.get(0).closed).isFalse();
            assertThat(conns.get(1).closed).as("the oldest waiting one").isTrue();
            assertThat(conns.get(2).closed).isFalse();
            assertThat(slots.size()).isEqualTo(3);

            admitted.get(2).busy(Duration.ofSeconds(10));
            slots.admit(new Conn(), Duration.ofSeconds(10)).orElseThrow().busy(Duration.ofSeconds(10)); // evicts the fourth
            assertThat(fourth.closed).isTrue();
            Conn refused = new Conn();
            assertThat(slots.admit(refused, Duration.ofSeconds(10))).as("every connection is busy").isEmpty();
            assertThat(refused.closed).isTrue();
            assertThat(slots.size()).isEqualTo(3);
        }
    }

    @Test
    void aConnectionPastItsDeadlineIsClosedAndItsPlaceFreed() {
        try (Slots slots = new Slots("t", LIMITS)) {
            Conn stalled = new Conn();
            slots.admit(stalled, Duration.ofMillis(100)).orElseThrow();
            Conn kept = new Conn();
            Slots.Slot k = slots.admit(kept, Duration.ofMillis(100)).orElseThrow();
            k.busy(Duration.ofSeconds(10));
            Awaitility.await().atMost(Duration.ofSeconds(2)).until(stalled.closed::get);
            assertThat(kept.closed).isFalse();
            assertThat(slots.size()).isEqualTo(1);
            k.close();
            assertThat(kept.closed).isTrue();
            assertThat(slots.size()).isZero();
        }
    }

    @Test
    void closingTheSetClosesEveryConnectionAndAdmitsNoMore() {
        Slots slots = new Slots("t", LIMITS);
        Conn a = new Conn();
        slots.admit(a, Duration.ofSeconds(10)).orElseThrow().busy(Duration.ofSeconds(10));
        slots.close();
        assertThat(a.closed).isTrue();
        Conn late = new Conn();
        assertThat(slots.admit(late, Duration.ofSeconds(1))).isEqualTo(Optional.empty());
        assertThat(late.closed).isTrue();
    }
}
