package io.kproxy.source.kube.internal;

import io.github.resilience4j.core.IntervalFunction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forces a relist of a kind whose watch is stuck, in three cases:
 *
 * <ul>
 *   <li>A kind that has finished listing stays without an open watch for longer than the grace
 *       period. This covers what fabric8 7.8 does not recover from: a plain HTTP 410 answer to a
 *       watch reconnect makes its watch manager retry the same resourceVersion forever (only a 410
 *       {@code ERROR} event or a first-connect failure reaches the informer's relist). Upstream
 *       client-go relists on any 410, event or status ({@code isExpiredError} in
 *       {@code staging/src/k8s.io/client-go/tools/cache/reflector.go}); this restores that, and
 *       also catches any other way a watch can stay closed. Forced relists of one kind back off
 *       exponentially (Resilience4j {@link IntervalFunction}) from the grace period up to the
 *       maximum while its watch stays closed, and the backoff resets once a watch is open again.</li>
 *   <li>The watch is closed, without a 410, while the API server answers
 *       ({@code reachable}: no unreachability episode open, see {@link Reachability}): fabric8
 *       had {@link #RESUME_ALLOWANCE} to resume it and did not (its resume was refused in a way
 *       that does not reach its informer, e.g. a failed WebSocket handshake, and its reconnect
 *       backoff grows to 32 s). The kind is relisted after client-go's backoff counted from when
 *       the API server was seen answering, as the reflector relists after any watch failure
 *       ({@code ListAndWatch} returns and {@code BackoffUntil} runs it again). While the API
 *       server does not answer, the grace above applies (a relist cannot succeed, and fabric8's
 *       own reconnects find the API server when it is back).</li>
 *   <li>The watch is closed after it met a 410 ({@link WatchLiveness#goneSince}): the kind is
 *       relisted after client-go's backoff instead of the grace, 0.8 s doubling up to 30 s with
 *       full jitter ({@code NewReflectorWithOptions}' backoff manager in reflector.go), unless
 *       fabric8 has started that relist itself meanwhile (a list in progress is left alone).
 *       fabric8's own relist after a 410 waits its reconnect backoff, which grows with every
 *       failure up to 32 s.</li>
 *   <li>The watch is open, but its request has outlived its deadline
 *       ({@link WatchLiveness#pastDeadline}): the API server should have ended it, so the
 *       connection is half-open; the kind is relisted at once (the new informer's list and watch
 *       open new connections; the old one is closed).</li>
 * </ul>
 *
 * <p>{@link #tick()} is called from one thread (the source's monitor) and does not block.
 */
public final class Watchdog {

    private static final Logger LOG = LoggerFactory.getLogger(Watchdog.class);
    /** client-go's reflector backoff: 800 ms initial, 30 s cap, factor 2, jitter 1.0 (reflector.go). */
    private static final Duration GONE_BACKOFF_INITIAL = Duration.ofMillis(800);
    private static final Duration GONE_BACKOFF_MAX = Duration.ofSeconds(30);
    /**
     * How long fabric8 may take to resume a closed watch before it counts as failed: its first
     * reconnect comes 1 s after the close ({@code watchReconnectInterval}), plus a handshake on
     * a loaded machine. A routine close (the watch's {@code timeoutSeconds}) is resumed well within it.
     */
    static final Duration RESUME_ALLOWANCE = Duration.ofSeconds(5);

    private final List<Tracked> tracked = new ArrayList<>();
    private final long graceNanos;
    private final IntervalFunction backoff;
    private final LongSupplier nanoTime;
    private final DoubleSupplier random;
    private final WatchLiveness liveness;
    private final Executor relister;
    private final Runnable resetConnections;
    private final BooleanSupplier reachable;

    /**
     * @param relister         runs the forced relists, so that a relist waiting on a full queue
     *                         never stalls the thread that ticks (and publishes the source's state)
     * @param resetConnections replaces the client's connections and relists every kind (run on
     *                         {@code relister}) when a watch is found half-open
     * @param reachable        whether the API server answers now (no unreachability episode open)
     */
    public Watchdog(List<? extends WatchedKind> watches, Duration grace, Duration backoffMax, WatchLiveness liveness,
                    LongSupplier nanoTime, DoubleSupplier random, Executor relister, Runnable resetConnections,
                    BooleanSupplier reachable) {
        this.reachable = reachable;
        this.resetConnections = resetConnections;
        this.graceNanos = grace.toNanos();
        this.backoff = IntervalFunction.ofExponentialBackoff(grace, 2.0, backoffMax);
        this.liveness = liveness;
        this.nanoTime = nanoTime;
        this.random = random;
        this.relister = relister;
        long now = nanoTime.getAsLong();
        for (WatchedKind w : watches) {
            tracked.add(new Tracked(w, now));
        }
    }

    /** Looks at every kind once; forces the relists that are due. */
    public void tick() {
        long now = nanoTime.getAsLong();
        for (Tracked t : tracked) {
            t.check(now);
        }
    }

    /** client-go's jittered backoff after a 410: {@code d + random * d}, d = 0.8 s * 2^(attempt-1), at most 30 s. */
    long goneBackoffNanos(int attempt) {
        long base = GONE_BACKOFF_INITIAL.toNanos() << Math.min(attempt - 1, 10);
        long capped = Math.min(base, GONE_BACKOFF_MAX.toNanos());
        return capped + (long) (random.getAsDouble() * capped);
    }

    private final class Tracked {
        private final WatchedKind watch;
        private long lastOpen;
        private boolean closedSinceKnown;
        private long closedSince;
        private long nextAllowed;
        private int attempts;
        private int goneAttempts;
        private boolean goneWaiting;
        private long goneDue;
        private int closedAttempts;
        private boolean closedWaiting;
        private long closedDue;

        Tracked(WatchedKind watch, long now) {
            this.watch = watch;
            this.lastOpen = now;
        }

        void check(long now) {
            if (watch.isWatching()) {
                if (liveness.pastDeadline(watch.kind(), now)) {
                    LOG.warn("decision=force-relist kind={} reason=watch-past-deadline scope=all-kinds", watch.kind());
                    for (Tracked t : tracked) {
                        liveness.relisted(t.watch.kind());
                        t.closedSinceKnown = false;
                    }
                    relister.execute(resetConnections);
                    return;
                }
                lastOpen = now;
                closedSinceKnown = false;
                attempts = 0;
                goneAttempts = 0;
                goneWaiting = false;
                closedAttempts = 0;
                closedWaiting = false;
                return;
            }
            if (watch.listing()) {
                // A list in progress (or fabric8 retrying one) is not a stuck watch.
                closedSinceKnown = false;
                goneWaiting = false;
                closedWaiting = false;
                return;
            }
            if (!closedSinceKnown) {
                closedSinceKnown = true;
                closedSince = now;
            }
            if (liveness.goneSince(watch.kind(), lastOpen)) {
                if (!goneWaiting) {
                    goneWaiting = true;
                    goneAttempts++;
                    goneDue = now + goneBackoffNanos(goneAttempts);
                }
                if (now - goneDue >= 0) {
                    LOG.info("decision=force-relist kind={} reason=closed-after-410 watch_closed_ms={} attempt={}", watch.kind(),
                            Duration.ofNanos(now - closedSince).toMillis(), goneAttempts);
                    goneWaiting = false;
                    force();
                }
                return;
            }
            if (!reachable.getAsBoolean()) {
                closedWaiting = false;
            } else {
                if (!closedWaiting) {
                    // Counted from when the API server is seen answering, and not before fabric8
                    // has had its chance to resume.
                    closedWaiting = true;
                    closedDue = Math.max(closedSince + RESUME_ALLOWANCE.toNanos(), now) + goneBackoffNanos(closedAttempts + 1);
                }
                if (now - closedDue >= 0) {
                    closedAttempts++;
                    closedWaiting = false;
                    LOG.info("decision=force-relist kind={} reason=closed-while-reachable watch_closed_ms={} attempt={}", watch.kind(),
                            Duration.ofNanos(now - closedSince).toMillis(), closedAttempts);
                    force();
                    return;
                }
            }
            if (now - closedSince < graceNanos || (attempts > 0 && now - nextAllowed < 0)) {
                return;
            }
            attempts++;
            long waitMillis = backoff.apply(attempts);
            long closedMillis = Duration.ofNanos(now - closedSince).toMillis();
            nextAllowed = now + Duration.ofMillis(waitMillis).toNanos();
            closedSince = now;
            LOG.warn("decision=force-relist kind={} reason=watch-closed watch_closed_ms={} attempt={} next_earliest_ms={}",
                    watch.kind(), closedMillis, attempts, waitMillis);
            relister.execute(watch::relist);
        }

        private void force() {
            liveness.relisted(watch.kind());
            closedSinceKnown = false;
            relister.execute(watch::relist);
        }
    }
}
