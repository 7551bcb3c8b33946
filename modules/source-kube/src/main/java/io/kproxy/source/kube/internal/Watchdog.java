package io.kproxy.source.kube.internal;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forces a relist when a kind that has finished listing stays without an open watch for longer
 * than the grace period. This covers what fabric8 7.8 does not recover from: a plain HTTP 410
 * answer to a watch reconnect makes its watch manager retry the same resourceVersion forever
 * (only a 410 {@code ERROR} event or a first-connect failure reaches the informer's relist).
 * Upstream client-go relists on any 410, event or status ({@code isExpiredError} in
 * {@code staging/src/k8s.io/client-go/tools/cache/reflector.go}); this restores that, and also
 * catches any other way a watch can stay closed. Forced relists of one kind back off
 * exponentially (Resilience4j {@link IntervalFunction}) from the grace period up to the maximum
 * while its watch stays closed, and the backoff resets once a watch is open again.
 *
 * <p>{@link #tick()} is called from one thread (the source's monitor) and does not block.
 */
public final class Watchdog {

    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);

    private final List<Tracked> tracked = new ArrayList<>();
    private final long graceNanos;
    private final IntervalFunction backoff;
    private final LongSupplier nanoTime;
    private final Executor relister;

    /**
     * @param relister runs the forced relists, so that a relist waiting on a full queue never
     *                 stalls the thread that ticks (and publishes the source's state)
     */
    public Watchdog(List<? extends WatchedKind> watches, Duration grace, Duration backoffMax, LongSupplier nanoTime,
                    Executor relister) {
        for (WatchedKind w : watches) {
            tracked.add(new Tracked(w));
        }
        this.graceNanos = grace.toNanos();
        this.backoff = IntervalFunction.ofExponentialBackoff(grace, 2.0, backoffMax);
        this.nanoTime = nanoTime;
        this.relister = relister;
    }

    /** Looks at every kind once; forces the relists that are due. */
    public void tick() {
        long now = nanoTime.getAsLong();
        for (Tracked t : tracked) {
            t.check(now);
        }
    }

    private final class Tracked {
        private final WatchedKind watch;
        private boolean closedSinceKnown;
        private long closedSince;
        private long nextAllowed;
        private int attempts;

        Tracked(WatchedKind watch) {
            this.watch = watch;
        }

        void check(long now) {
            if (watch.isWatching()) {
                closedSinceKnown = false;
                attempts = 0;
                return;
            }
            if (watch.listing()) {
                // A list in progress (or fabric8 retrying one) is not a stuck watch.
                closedSinceKnown = false;
                return;
            }
            if (!closedSinceKnown) {
                closedSinceKnown = true;
                closedSince = now;
                return;
            }
            if (now - closedSince < graceNanos || (attempts > 0 && now - nextAllowed < 0)) {
                return;
            }
            attempts++;
            long waitMillis = backoff.apply(attempts);
            long closedMillis = Duration.ofNanos(now - closedSince).toMillis();
            nextAllowed = now + Duration.ofMillis(waitMillis).toNanos();
            closedSince = now;
            LOG.warn("decision=force-relist kind={} watch_closed_ms={} attempt={} next_earliest_ms={}",
                    watch.kind(), closedMillis, attempts, waitMillis);
            relister.execute(watch::relist);
        }
    }
}
