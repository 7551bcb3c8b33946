package io.kproxy.source.kube;

import java.time.Duration;
import java.util.Objects;

/**
 * How the {@link EventRecorder} writes. Immutable; start from {@link #defaults(String)}.
 *
 * @param reportingController the Event's {@code reportingController} ({@code source.component}
 *                            in core/v1): {@code kube-proxy}, as upstream, so that the field
 *                            selectors and dashboards that find kube-proxy's Events find these
 * @param reportingInstance   the Event's {@code reportingInstance}: upstream's
 *                            {@code <controller>-<hostname>}; at most 128 characters
 * @param queueCapacity       Events waiting to be written; one more is dropped (counted)
 * @param burst               writes (creates and series updates) per reason at once
 * @param refillEvery         one more write per reason after this long, up to {@code burst}
 * @param seriesWindow        a repeat within this long of the last one joins its series
 *                            (client-go's events broadcaster: 6 minutes)
 * @param seriesRefresh       how often a grown series' count is written (the first repeat at
 *                            once, as client-go; client-go then refreshes every 30 minutes)
 * @param attempts            tries per write when the API server cannot be reached or answers 5xx
 * @param retryBackoff        wait between two tries
 * @param closeTimeout        how long {@link EventRecorder#close()} waits for queued Events
 */
public record EventRecorderOptions(String reportingController, String reportingInstance, int queueCapacity, int burst,
                                   Duration refillEvery, Duration seriesWindow, Duration seriesRefresh, int attempts,
                                   Duration retryBackoff, Duration closeTimeout) {

    /** Upstream's component name ({@code cmd/kube-proxy/app/server.go}, {@code kubeProxy}). */
    public static final String KUBE_PROXY = "kube-proxy";

    public EventRecorderOptions {
        Objects.requireNonNull(reportingController, "reportingController");
        Objects.requireNonNull(reportingInstance, "reportingInstance");
        if (reportingController.isEmpty() || reportingInstance.isEmpty() || reportingInstance.length() > 128) {
            throw new IllegalArgumentException("reportingController and reportingInstance must not be empty; "
                    + "reportingInstance has at most 128 characters");
        }
        if (queueCapacity < 1 || burst < 1 || attempts < 1) {
            throw new IllegalArgumentException("queueCapacity, burst and attempts must be positive");
        }
        for (Duration d : new Duration[] {refillEvery, seriesWindow, seriesRefresh, retryBackoff, closeTimeout}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("every duration of EventRecorderOptions must be positive");
            }
        }
    }

    /**
     * kube-proxy's identity on host {@code hostname} (the instance cut to 128 characters), 100
     * queued Events, 25 writes per reason at once and one more every 5 seconds (client-go's
     * spam filter allows a burst of 25 per object), series as client-go's events broadcaster with
     * a 1-minute refresh, 3 tries 2 seconds apart, 5 seconds to drain at close.
     */
    public static EventRecorderOptions defaults(String hostname) {
        String instance = KUBE_PROXY + "-" + hostname;
        return new EventRecorderOptions(KUBE_PROXY, instance.substring(0, Math.min(128, instance.length())), 100, 25,
                Duration.ofSeconds(5), Duration.ofMinutes(6), Duration.ofMinutes(1), 3, Duration.ofSeconds(2),
                Duration.ofSeconds(5));
    }

    public EventRecorderOptions withRateLimit(int burst, Duration refillEvery) {
        return new EventRecorderOptions(reportingController, reportingInstance, queueCapacity, burst, refillEvery, seriesWindow,
                seriesRefresh, attempts, retryBackoff, closeTimeout);
    }

    public EventRecorderOptions withSeries(Duration window, Duration refresh) {
        return new EventRecorderOptions(reportingController, reportingInstance, queueCapacity, burst, refillEvery, window,
                refresh, attempts, retryBackoff, closeTimeout);
    }

    public EventRecorderOptions withRetries(int attempts, Duration backoff) {
        return new EventRecorderOptions(reportingController, reportingInstance, queueCapacity, burst, refillEvery, seriesWindow,
                seriesRefresh, attempts, backoff, closeTimeout);
    }

    public EventRecorderOptions withCloseTimeout(Duration timeout) {
        return new EventRecorderOptions(reportingController, reportingInstance, queueCapacity, burst, refillEvery, seriesWindow,
                seriesRefresh, attempts, retryBackoff, timeout);
    }
}
