package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Series folding and the per-reason rate limit, in virtual time. */
class EventAggregatorTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final ObjectRef NODE = ObjectRef.node("node-a");

    private static ApiEvent warning(String reason, ObjectRef on) {
        return ApiEvent.warning(reason, "Listen", "port taken", on);
    }

    @Test
    void repeatsFoldIntoOneEventWhoseCountIsWrittenAtOnceThenPerRefresh() {
        EventAggregator a = new EventAggregator(25, Duration.ofSeconds(5), Duration.ofMinutes(6), Duration.ofMinutes(1));
        ApiEvent e = warning("FailedToStartServiceHealthcheck", ObjectRef.service("ns", "web"));
        assertThat(a.offer(e, T0)).isInstanceOf(EventAggregator.Decision.Create.class);
        WrittenEvent w = new WrittenEvent(WrittenEvent.Api.EVENTS_V1, "ns", "web.1");
        a.created(e, w, T0);

        // the first repeat is written at once (client-go: series count 2 straight away)
        EventAggregator.Decision second = a.offer(e, T0.plusSeconds(1));
        assertThat(second).isInstanceOfSatisfying(EventAggregator.Decision.Update.class, u -> assertThat(u.count()).isEqualTo(2));
        a.updated((EventAggregator.Decision.Update) second, T0.plusSeconds(1));
        // later repeats only count...
        for (int i = 2; i <= 10; i++) {
            assertThat(a.offer(e, T0.plusSeconds(i))).isEqualTo(new EventAggregator.Decision.Folded(i + 1));
        }
        assertThat(a.due(T0.plusSeconds(30), false)).isEmpty();
        // ...and are written once a refresh has passed since the last write
        List<EventAggregator.Decision.Update> due = a.due(T0.plusSeconds(61), false);
        assertThat(due).singleElement().satisfies(u -> {
            assertThat(u.count()).isEqualTo(11);
            assertThat(u.written()).isEqualTo(w);
            assertThat(u.lastObserved()).isEqualTo(T0.plusSeconds(10));
        });
        a.updated(due.getFirst(), T0.plusSeconds(61));
        assertThat(a.due(T0.plusSeconds(200), false)).isEmpty();
        // after a silence longer than the window, the same Event starts anew
        assertThat(a.offer(e, T0.plusSeconds(10 + 6 * 60 + 1))).isInstanceOf(EventAggregator.Decision.Create.class);
    }

    @Test
    void eachReasonHasItsOwnBucketAndOnlyTheFirstRefusalOfARunIsMarked() {
        EventAggregator a = new EventAggregator(2, Duration.ofSeconds(10), Duration.ofMinutes(6), Duration.ofMinutes(1));
        List<EventAggregator.Decision> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            out.add(a.offer(warning("FailedToStartServiceHealthcheck", ObjectRef.service("ns", "s" + i)), T0));
        }
        assertThat(out).hasExactlyElementsOfTypes(EventAggregator.Decision.Create.class, EventAggregator.Decision.Create.class,
                EventAggregator.Decision.Limited.class, EventAggregator.Decision.Limited.class);
        assertThat(((EventAggregator.Decision.Limited) out.get(2)).firstSinceAllowed()).isTrue();
        assertThat(((EventAggregator.Decision.Limited) out.get(3)).firstSinceAllowed()).isFalse();
        assertThat(a.offer(warning("readOnlySysFS", NODE), T0)).isInstanceOf(EventAggregator.Decision.Create.class);
        assertThat(a.offer(warning("FailedToStartServiceHealthcheck", ObjectRef.service("ns", "s9")), T0.plusSeconds(10)))
                .isInstanceOf(EventAggregator.Decision.Create.class);
    }

    /**
     * Property, over seeded random streams of Events (few reasons and objects, random gaps):
     * (1) the writes of one reason in any stretch of time never exceed the burst plus one per
     * refill interval in it; (2) every offered Event is accounted for exactly once: created,
     * folded into a series, or refused.
     */
    @Test
    void writesStayWithinTheRateAndEveryEventIsAccountedFor() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (int run = 0; run < 200; run++) {
            int burst = 1 + r.nextInt(5);
            Duration refill = Duration.ofSeconds(1 + r.nextInt(20));
            EventAggregator a = new EventAggregator(burst, refill, Duration.ofSeconds(30 + r.nextInt(400)), Duration.ofSeconds(1 + r.nextInt(90)));
            Map<String, List<Instant>> writes = new HashMap<>();
            Instant now = T0;
            int created = 0;
            int folded = 0;
            int limited = 0;
            int n = 50 + r.nextInt(300);
            for (int i = 0; i < n; i++) {
                now = now.plusMillis(r.nextInt(r.nextBoolean() ? 500 : 60_000));
                String reason = "R" + r.nextInt(3);
                ApiEvent e = warning(reason, ObjectRef.service("ns", "s" + r.nextInt(4)));
                switch (a.offer(e, now)) {
                    case EventAggregator.Decision.Create c -> {
                        created++;
                        writes.computeIfAbsent(reason, k -> new ArrayList<>()).add(now);
                        a.created(e, new WrittenEvent(WrittenEvent.Api.EVENTS_V1, "ns", "e" + i), now);
                    }
                    case EventAggregator.Decision.Update u -> {
                        folded++;
                        writes.computeIfAbsent(reason, k -> new ArrayList<>()).add(now);
                        a.updated(u, now);
                    }
                    case EventAggregator.Decision.Folded f -> folded++;
                    case EventAggregator.Decision.Limited l -> limited++;
                }
                for (EventAggregator.Decision.Update u : a.due(now, false)) {
                    writes.computeIfAbsent(u.reason(), k -> new ArrayList<>()).add(now);
                    a.updated(u, now);
                }
            }
            assertThat(created + folded + limited).as("seed %d run %d", seed, run).isEqualTo(n);
            for (List<Instant> ws : writes.values()) {
                for (int i = 0; i < ws.size(); i++) {
                    for (int j = i; j < ws.size(); j++) {
                        long allowed = burst + Duration.between(ws.get(i), ws.get(j)).toNanos() / refill.toNanos();
                        assertThat((long) (j - i + 1)).as("seed %d run %d: writes between %s and %s", seed, run, ws.get(i), ws.get(j))
                                .isLessThanOrEqualTo(allowed);
                    }
                }
            }
        }
    }
}
