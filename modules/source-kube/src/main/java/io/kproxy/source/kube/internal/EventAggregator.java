package io.kproxy.source.kube.internal;

import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.ObjectRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Decides what reaches the API server, as client-go's events broadcaster and event correlator
 * do ({@code staging/src/k8s.io/client-go/tools/events/event_broadcaster.go},
 * {@code tools/record/events_cache.go}):
 *
 * <ul>
 *   <li>Repeats fold into a series. Events with the same reason, action and object are one
 *       Event (client-go's {@code getKey}, which leaves the note out): the first is created; a
 *       repeat within {@code seriesWindow} of the previous one only counts, and the count is
 *       written at once for the first repeat and then at most every {@code seriesRefresh}; a
 *       repeat after a longer silence starts a new Event.</li>
 *   <li>Writes are rate limited per reason: a bucket of {@code burst} writes that refills one
 *       every {@code refillEvery} (client-go's spam filter: 25, then one per 5 minutes, per
 *       object). A create the bucket refuses is dropped; a series update it refuses waits.</li>
 * </ul>
 *
 * <p>Pure: time is passed in. Not thread-safe (the recorder's one thread owns it).
 */
final class EventAggregator {

    /** What to do with an offered Event. */
    sealed interface Decision {
        /** Create it. Report the result with {@link #created}. */
        record Create(ApiEvent event) implements Decision {
        }

        /** Write the series count of an Event already created. Report success with {@link #updated}. */
        record Update(Object key, WrittenEvent written, int count, Instant lastObserved) implements Decision {
            /** The reason of the Event this updates. */
            String reason() {
                return ((Key) key).reason();
            }
        }

        /** Counted into an existing series; nothing to write now. */
        record Folded(int count) implements Decision {
        }

        /** Refused by the rate limit of its reason; {@code firstSinceAllowed} is true for the first refusal of a run. */
        record Limited(String reason, boolean firstSinceAllowed) implements Decision {
        }
    }

    private record Key(String reason, String action, ObjectRef regarding) {
        static Key of(ApiEvent e) {
            return new Key(e.reason(), e.action(), e.regarding());
        }
    }

    private static final class Series {
        final WrittenEvent written;
        int count = 1;
        int writtenCount = 1;
        Instant last;
        Instant lastWrite;

        Series(WrittenEvent written, Instant now) {
            this.written = written;
            this.last = now;
            this.lastWrite = now;
        }
    }

    private static final class Bucket {
        double tokens;
        Instant at;
        boolean limited;

        Bucket(int burst, Instant now) {
            this.tokens = burst;
            this.at = now;
        }
    }

    private final int burst;
    private final Duration refillEvery;
    private final Duration seriesWindow;
    private final Duration seriesRefresh;
    private final Map<Key, Series> series = new HashMap<>();
    private final Map<String, Bucket> buckets = new HashMap<>();

    EventAggregator(int burst, Duration refillEvery, Duration seriesWindow, Duration seriesRefresh) {
        this.burst = burst;
        this.refillEvery = refillEvery;
        this.seriesWindow = seriesWindow;
        this.seriesRefresh = seriesRefresh;
    }

    /** What to do with {@code event}, seen at {@code now}. */
    Decision offer(ApiEvent event, Instant now) {
        Key key = Key.of(event);
        Series s = series.get(key);
        if (s != null && !now.isAfter(s.last.plus(seriesWindow))) {
            s.count++;
            s.last = now;
            if (s.writtenCount == 1 && s.count == 2 && take(event.reason(), now)) {
                return new Decision.Update(key, s.written, s.count, now);
            }
            return new Decision.Folded(s.count);
        }
        if (!take(event.reason(), now)) {
            Bucket b = buckets.get(event.reason());
            boolean first = !b.limited;
            b.limited = true;
            return new Decision.Limited(event.reason(), first);
        }
        return new Decision.Create(event);
    }

    /** {@code event} was created as {@code written} at {@code now}: its repeats join it. */
    void created(ApiEvent event, WrittenEvent written, Instant now) {
        series.put(Key.of(event), new Series(written, now));
    }

    /** The series update {@code u} was written at {@code now}. */
    void updated(Decision.Update u, Instant now) {
        Series s = series.get((Key) u.key());
        if (s != null && s.written.equals(u.written())) {
            s.writtenCount = Math.max(s.writtenCount, u.count());
            s.lastWrite = now;
        }
    }

    /**
     * Series updates due at {@code now} (grown, and last written {@code seriesRefresh} ago or
     * ended), each within its reason's rate limit; forgets series that ended with nothing left
     * to write. With {@code all}, every grown series regardless of refresh and rate limit (at close).
     */
    List<Decision.Update> due(Instant now, boolean all) {
        List<Decision.Update> out = new ArrayList<>();
        for (Iterator<Map.Entry<Key, Series>> it = series.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Key, Series> e = it.next();
            Series s = e.getValue();
            boolean ended = now.isAfter(s.last.plus(seriesWindow));
            if (s.count > s.writtenCount && (all || ((ended || !now.isBefore(s.lastWrite.plus(seriesRefresh)))
                    && take(e.getKey().reason(), now)))) {
                out.add(new Decision.Update(e.getKey(), s.written, s.count, s.last));
            } else if (ended) {
                it.remove();
            }
        }
        return out;
    }

    /** Takes one write from {@code reason}'s bucket, refilled up to {@code burst} for the time passed. */
    private boolean take(String reason, Instant now) {
        Bucket b = buckets.computeIfAbsent(reason, r -> new Bucket(burst, now));
        if (now.isAfter(b.at)) {
            double refill = (double) Duration.between(b.at, now).toNanos() / refillEvery.toNanos();
            b.tokens = Math.min(burst, b.tokens + refill);
            b.at = now;
        }
        if (b.tokens >= 1) {
            b.tokens -= 1;
            b.limited = false;
            return true;
        }
        return false;
    }
}
