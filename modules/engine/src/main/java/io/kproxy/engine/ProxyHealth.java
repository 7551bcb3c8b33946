package io.kproxy.engine;

import io.kproxy.state.Pin;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The proxy's health, as upstream's {@code ProxyHealthServer} computes it
 * ({@code pkg/proxy/healthcheck/proxy_health.go}, docs/upstream-behaviour.md §1.6 rows 47–49), plus
 * one kproxy signal.
 *
 * <ul>
 *   <li>{@link #queuedUpdate()} records when the oldest change not yet programmed arrived (only
 *       if none is pending); {@link #updated()} clears it and stamps the last update.</li>
 *   <li>The proxy is unhealthy when a change has been pending for {@code healthTimeout}
 *       (twice the sync period) or longer, once it has synced at least once (before its first
 *       successful sync it is healthy, "starting up", as upstream).</li>
 *   <li>{@code /healthz} also requires node eligibility (KEP-3836: not being deleted, not tainted
 *       {@code ToBeDeletedByClusterAutoscaler}); {@code /livez} does not.</li>
 *   <li>kproxy's addition: while the source has been disconnected from the API server for
 *       {@code healthTimeout} or longer, changes may be waiting on the other side, so
 *       {@code /healthz} answers 503 (a proxy stuck behind a lost API server is visible). It
 *       does not affect {@code /livez} (restarting cannot bring the API server back) nor the
 *       per-service health-check ports (every node loses the API server at once; failing them
 *       all would drain every load balancer).</li>
 *   <li>kproxy's addition: while the dataplane is pinned (rollback), both bodies carry
 *       {@code "dataplanePinned": true, "pinnedToOffset": N} after upstream's fields. A pinned
 *       proxy is healthy when it programs what it is asked to (the pinned state), so the status
 *       codes do not change; when not pinned the bodies are upstream's, byte for byte.</li>
 * </ul>
 *
 * <p>Thread-safe (synchronized); never blocks. Times come from the injected clock.
 */
public final class ProxyHealth {

    /** A health answer: HTTP status and the JSON body upstream writes. */
    public record Response(int status, String body) {
    }

    private final EngineClock clock;
    private final Duration healthTimeout;
    private final ProxyMetrics metrics;
    private Instant lastUpdated;
    private Instant oldestPending;
    private Instant sourceLostSince;
    private boolean nodeEligible = true;
    private long pinnedToOffset = -1;

    /**
     * @param healthTimeout upstream's {@code 2 × syncPeriod}
     * @param metrics       counts answers ({@code kubeproxy_proxy_healthz_total}, {@code _livez_total})
     */
    public ProxyHealth(EngineClock clock, Duration healthTimeout, ProxyMetrics metrics) {
        this.clock = clock;
        this.healthTimeout = healthTimeout;
        this.metrics = metrics;
    }

    /** A change arrived that the kernel does not reflect yet. */
    public synchronized void queuedUpdate() {
        if (oldestPending == null) {
            oldestPending = clock.now();
        }
    }

    /** The kernel reflects every change folded so far. */
    public synchronized void updated() {
        oldestPending = null;
        lastUpdated = clock.now();
    }

    /** Whether the Node may receive traffic (from the folded Node object). */
    public synchronized void nodeEligible(boolean eligible) {
        nodeEligible = eligible;
    }

    /** The dataplane pin in force, or empty while the live state is programmed. */
    public synchronized void pinned(Optional<Pin> pin) {
        pinnedToOffset = pin.map(Pin::toOffset).orElse(-1L);
    }

    /** Whether the source's watches are open (kproxy's API-server signal). */
    public synchronized void sourceConnected(boolean connected) {
        if (connected) {
            sourceLostSince = null;
        } else if (sourceLostSince == null) {
            sourceLostSince = clock.now();
        }
    }

    /** Upstream's {@code IsHealthy()}: pending changes are not late. What the service health-check ports use. */
    public synchronized boolean isHealthy() {
        return proxyHealthy(clock.now());
    }

    private boolean proxyHealthy(Instant now) {
        return lastUpdated == null || oldestPending == null || Duration.between(oldestPending, now).compareTo(healthTimeout) < 0;
    }

    private boolean sourceHealthy(Instant now) {
        return sourceLostSince == null || Duration.between(sourceLostSince, now).compareTo(healthTimeout) < 0;
    }

    /** The {@code /healthz} answer. */
    public Response healthz() {
        Instant now;
        boolean healthy;
        boolean eligible;
        Instant last;
        long pin;
        synchronized (this) {
            now = clock.now();
            eligible = nodeEligible;
            healthy = proxyHealthy(now) && sourceHealthy(now) && eligible;
            last = healthy ? now : Optional.ofNullable(lastUpdated).orElse(GoTime.ZERO);
            pin = pinnedToOffset;
        }
        metrics.healthz(healthy ? 200 : 503);
        return new Response(healthy ? 200 : 503, "{\"lastUpdated\": \"" + GoTime.format(last) + "\",\"currentTime\": \""
                + GoTime.format(now) + "\", \"nodeEligible\": " + eligible + pinFields(pin) + "}");
    }

    /** The {@code /livez} answer. */
    public Response livez() {
        Instant now;
        boolean healthy;
        Instant last;
        long pin;
        synchronized (this) {
            now = clock.now();
            healthy = proxyHealthy(now);
            last = healthy ? now : Optional.ofNullable(lastUpdated).orElse(GoTime.ZERO);
            pin = pinnedToOffset;
        }
        metrics.livez(healthy ? 200 : 503);
        return new Response(healthy ? 200 : 503,
                "{\"lastUpdated\": \"" + GoTime.format(last) + "\",\"currentTime\": \"" + GoTime.format(now) + "\"" + pinFields(pin) + "}");
    }

    /** kproxy's extension of the bodies: nothing when live, so that they stay upstream's byte for byte. */
    private static String pinFields(long pinnedToOffset) {
        return pinnedToOffset < 0 ? "" : ", \"dataplanePinned\": true, \"pinnedToOffset\": " + pinnedToOffset;
    }
}
