package io.kproxy.source.kube.internal;

import io.kproxy.events.ResourceKind;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * How long each kind's current watch request may live, and when its watch last met a 410.
 *
 * <p>Every watch request asks the API server to end it after {@code timeoutSeconds} =
 * {@code minWatchTimeout * (1 + random)}, as client-go's reflector does
 * ({@code k8s.io/client-go/tools/cache/reflector.go}, {@code minWatchTimeout} of 5 min, so that
 * watches spread over the API servers). An API server ends the watch then and fabric8 resumes it
 * with a new request. A connection that went silent without closing (a NAT or load-balancer entry
 * dropped, the API server's host gone: a half-open connection) ends nothing: fabric8's watch over
 * HTTP/1.1 has no read timeout and no ping, where client-go's HTTP/2 transport pings. So the
 * request also gets a client-side deadline, {@link #slack} past its timeout: a watch still
 * carried by the same request after it is {@link #pastDeadline stuck}, and the watchdog relists
 * the kind. Thread-safe (one lock; nothing blocks under it).
 */
public final class WatchLiveness {

    private final Duration minWatchTimeout;
    private final LongSupplier nanoTime;
    private final DoubleSupplier random;
    private final Map<ResourceKind, Entry> entries = new EnumMap<>(ResourceKind.class);

    private static final class Entry {
        long deadline;
        boolean deadlineSet;
        long goneAt;
        boolean goneSet;
    }

    public WatchLiveness(Duration minWatchTimeout, LongSupplier nanoTime, DoubleSupplier random) {
        this.minWatchTimeout = minWatchTimeout;
        this.nanoTime = nanoTime;
        this.random = random;
        for (ResourceKind k : ResourceKind.values()) {
            entries.put(k, new Entry());
        }
    }

    /**
     * How far past its {@code timeoutSeconds} a watch request may still be open: a tenth of
     * {@code minWatchTimeout}, at least 5 s (fabric8's reconnect after the API server ended the
     * watch, and a loaded machine).
     */
    public Duration slack() {
        Duration tenth = minWatchTimeout.dividedBy(10);
        return tenth.compareTo(Duration.ofSeconds(5)) < 0 ? Duration.ofSeconds(5) : tenth;
    }

    /** A watch request of {@code kind} starts now: its {@code timeoutSeconds}, and its deadline recorded. */
    public synchronized long watchRequested(ResourceKind kind) {
        double factor = 1.0 + Math.min(Math.max(random.getAsDouble(), 0.0), 1.0);
        long timeoutSeconds = (long) (minWatchTimeout.toSeconds() * factor);
        Entry e = entries.get(kind);
        e.deadline = nanoTime.getAsLong() + Duration.ofSeconds(timeoutSeconds).plus(slack()).toNanos();
        e.deadlineSet = true;
        return timeoutSeconds;
    }

    /** The current watch request of {@code kind} has outlived its deadline (and nobody relisted since). */
    public synchronized boolean pastDeadline(ResourceKind kind, long now) {
        Entry e = entries.get(kind);
        return e.deadlineSet && now - e.deadline > 0;
    }

    /** A watch of {@code kind} was answered 410 Gone (an {@code ERROR} event or a plain HTTP 410). */
    public synchronized void gone(ResourceKind kind) {
        Entry e = entries.get(kind);
        e.goneAt = nanoTime.getAsLong();
        e.goneSet = true;
    }

    /** Whether a watch of {@code kind} met a 410 at or after {@code since}. */
    public synchronized boolean goneSince(ResourceKind kind, long since) {
        Entry e = entries.get(kind);
        return e.goneSet && e.goneAt - since >= 0;
    }

    /** A relist of {@code kind} was forced: its old request's deadline and 410 no longer count. */
    public synchronized void relisted(ResourceKind kind) {
        Entry e = entries.get(kind);
        e.deadlineSet = false;
        e.goneSet = false;
    }
}
