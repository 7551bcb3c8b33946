package io.kproxy.source.kube;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.NodeName;
import java.time.Duration;

/**
 * How the Kubernetes source connects, pages, watches and appends. Immutable and thread-safe; no
 * null component (strings use "" for "none").
 * Start from {@link #defaults(NodeName)} and change what differs with the {@code with...} methods.
 *
 * @param nodeName                this proxy's node: only its Node is watched and recorded
 * @param masterUrl               API server URL; "" takes it from the kubeconfig or the in-cluster
 *                                service account (upstream's {@code --master})
 * @param kubeconfig              kubeconfig file; "" means, as upstream kube-proxy: no credentials
 *                                when {@code masterUrl} is given, else the in-cluster service
 *                                account ({@code KUBECONFIG} and {@code ~/.kube/config} are not read)
 * @param sourceName              the {@code source} written on every appended record
 * @param listPageSize            {@code limit} of each list page (client-go's pager uses 500)
 * @param watchReconnectInterval  fabric8's first watch reconnect delay (it doubles up to 32 s)
 * @param watchdogTick            how often the watchdog looks at the watches
 * @param watchdogGrace           how long a listed kind may stay without an open watch before
 *                                the watchdog forces a relist
 * @param relistBackoffMax        the longest wait between two forced relists of one kind while
 *                                its watch stays closed (the wait starts at {@code watchdogGrace}
 *                                and doubles)
 * @param queueCapacity           events held for appending; when full, informer callbacks block
 * @param appendBatch             most events appended in one call
 * @param appendBackoffInitial    first wait after the log refused an append (it doubles)
 * @param appendBackoffMax        longest wait between append attempts
 * @param minWatchTimeout         the shortest life of one watch request: each asks the API server
 *                                to end it after {@code minWatchTimeout * (1 + random)} (its
 *                                {@code timeoutSeconds}, as client-go's reflector does), and the
 *                                watchdog relists a kind whose watch is still open a little past
 *                                that (a half-open connection; see docs/operations.md, "Watch liveness")
 */
public record KubeSourceOptions(NodeName nodeName, String masterUrl, String kubeconfig, String sourceName,
                                int listPageSize, Duration watchReconnectInterval, Duration watchdogTick,
                                Duration watchdogGrace, Duration relistBackoffMax, int queueCapacity, int appendBatch,
                                Duration appendBackoffInitial, Duration appendBackoffMax, Duration minWatchTimeout) {

    /** The {@code source} of records this module appends by default. */
    public static final String DEFAULT_SOURCE = "source/kube";

    public KubeSourceOptions {
        if (nodeName == null || masterUrl == null || kubeconfig == null || sourceName == null) {
            throw new IllegalArgumentException("nodeName, masterUrl, kubeconfig and sourceName are required (use \"\" for none)");
        }
        if (sourceName.isEmpty()) {
            throw new InvalidValueException("sourceName", sourceName, "must not be empty");
        }
        positive("listPageSize", listPageSize);
        positive("queueCapacity", queueCapacity);
        positive("appendBatch", appendBatch);
        positive("watchReconnectInterval", watchReconnectInterval);
        positive("watchdogTick", watchdogTick);
        positive("watchdogGrace", watchdogGrace);
        positive("relistBackoffMax", relistBackoffMax);
        positive("appendBackoffInitial", appendBackoffInitial);
        positive("appendBackoffMax", appendBackoffMax);
        positive("minWatchTimeout", minWatchTimeout);
        if (minWatchTimeout.toSeconds() < 1) {
            throw new InvalidValueException("minWatchTimeout", minWatchTimeout, "must be at least 1 s (timeoutSeconds is in seconds)");
        }
        if (relistBackoffMax.compareTo(watchdogGrace) < 0) {
            throw new InvalidValueException("relistBackoffMax", relistBackoffMax, "must not be shorter than watchdogGrace");
        }
        if (appendBackoffMax.compareTo(appendBackoffInitial) < 0) {
            throw new InvalidValueException("appendBackoffMax", appendBackoffMax, "must not be shorter than appendBackoffInitial");
        }
    }

    /**
     * Defaults: pages of 500, watch reconnects from 1 s (fabric8's default), a watchdog that
     * looks every second and forces a relist after 60 s without a watch (longer than fabric8's
     * 32 s backoff cap, so a plain reconnect gets two chances first), forced relists at most
     * every 5 min, 4096 queued events, batches of 256, append retries from 100 ms to 10 s, watch
     * requests that live 5-10 min (client-go's {@code minWatchTimeout} of 5 min,
     * k8s.io/client-go/tools/cache/reflector.go).
     */
    public static KubeSourceOptions defaults(NodeName nodeName) {
        return new KubeSourceOptions(nodeName, "", "", DEFAULT_SOURCE, 500, Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(60), Duration.ofMinutes(5), 4096, 256, Duration.ofMillis(100), Duration.ofSeconds(10),
                Duration.ofMinutes(5));
    }

    public KubeSourceOptions withMasterUrl(String url) {
        return new KubeSourceOptions(nodeName, url, kubeconfig, sourceName, listPageSize, watchReconnectInterval,
                watchdogTick, watchdogGrace, relistBackoffMax, queueCapacity, appendBatch, appendBackoffInitial, appendBackoffMax, minWatchTimeout);
    }

    public KubeSourceOptions withKubeconfig(String path) {
        return new KubeSourceOptions(nodeName, masterUrl, path, sourceName, listPageSize, watchReconnectInterval,
                watchdogTick, watchdogGrace, relistBackoffMax, queueCapacity, appendBatch, appendBackoffInitial, appendBackoffMax, minWatchTimeout);
    }

    public KubeSourceOptions withListPageSize(int pageSize) {
        return new KubeSourceOptions(nodeName, masterUrl, kubeconfig, sourceName, pageSize, watchReconnectInterval,
                watchdogTick, watchdogGrace, relistBackoffMax, queueCapacity, appendBatch, appendBackoffInitial, appendBackoffMax, minWatchTimeout);
    }

    public KubeSourceOptions withWatchReconnectInterval(Duration interval) {
        return new KubeSourceOptions(nodeName, masterUrl, kubeconfig, sourceName, listPageSize, interval,
                watchdogTick, watchdogGrace, relistBackoffMax, queueCapacity, appendBatch, appendBackoffInitial, appendBackoffMax, minWatchTimeout);
    }

    public KubeSourceOptions withWatchdog(Duration tick, Duration grace, Duration backoffMax) {
        return new KubeSourceOptions(nodeName, masterUrl, kubeconfig, sourceName, listPageSize, watchReconnectInterval,
                tick, grace, backoffMax, queueCapacity, appendBatch, appendBackoffInitial, appendBackoffMax, minWatchTimeout);
    }

    public KubeSourceOptions withQueue(int capacity, int batch) {
        return new KubeSourceOptions(nodeName, masterUrl, kubeconfig, sourceName, listPageSize, watchReconnectInterval,
                watchdogTick, watchdogGrace, relistBackoffMax, capacity, batch, appendBackoffInitial, appendBackoffMax, minWatchTimeout);
    }

    public KubeSourceOptions withAppendBackoff(Duration initial, Duration max) {
        return new KubeSourceOptions(nodeName, masterUrl, kubeconfig, sourceName, listPageSize, watchReconnectInterval,
                watchdogTick, watchdogGrace, relistBackoffMax, queueCapacity, appendBatch, initial, max, minWatchTimeout);
    }

    /** Watch requests that live {@code min} to twice {@code min} (tests and the chaos runner use seconds). */
    public KubeSourceOptions withMinWatchTimeout(Duration min) {
        return new KubeSourceOptions(nodeName, masterUrl, kubeconfig, sourceName, listPageSize, watchReconnectInterval,
                watchdogTick, watchdogGrace, relistBackoffMax, queueCapacity, appendBatch, appendBackoffInitial, appendBackoffMax, min);
    }

    private static void positive(String field, int value) {
        if (value <= 0) {
            throw new InvalidValueException(field, value, "must be positive");
        }
    }

    private static void positive(String field, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidValueException(field, String.valueOf(value), "must be a positive duration");
        }
    }
}
