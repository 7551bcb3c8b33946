package io.kproxy.source.kube.internal;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says, at WARN and within {@link #NO_ANSWER_WARNING}, which API server address the source
 * cannot reach and why: one line when a request has gone unanswered that long (a blackholed
 * address, or the {@code kubernetes} Service address on a node where nothing routes it yet), and
 * one line for each different network reason in the same episode (connection refused, connect
 * timeout, no route, DNS, TLS). Repeats of a reason are DEBUG. An episode ends with the first
 * answer of any kind, logged at INFO with its length. HTTP error answers (401, 403, …) are the
 * informers' to report, per kind ({@link KindWatch}): they mean the address is reachable.
 *
 * <p>Fed by {@link RequestObserver} from HTTP client threads and ticked by the source's monitor;
 * thread-safe (synchronized), never blocks.
 */
public final class Reachability {

    /**
     * How long the first unanswered request may wait before the source warns. Five seconds:
     * longer than a TCP connect and TLS handshake take to any reachable control plane, much
     * shorter than the JDK's and fabric8's timeouts and retries (10 s per connect, retried with
     * backoff for minutes), which left an unroutable address unreported for 129 s.
     */
    public static final Duration NO_ANSWER_WARNING = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(Reachability.class);

    private final String address;
    private final String authentication;
    private final String hint;
    private final LongSupplier nanoTime;
    private final Set<String> reported = new LinkedHashSet<>();
    private long pendingSince = -1;
    private long episodeStart = -1;

    /**
     * @param address        the API server URL, as named in every line
     * @param authentication how requests authenticate ({@link ClientSettings#authentication()})
     * @param hint           added to the no-answer warning ("" for none)
     */
    public Reachability(String address, String authentication, String hint, LongSupplier nanoTime) {
        this.address = address;
        this.authentication = authentication;
        this.hint = hint;
        this.nanoTime = nanoTime;
    }

    /**
     * The hint for settings that reach the API server through the {@code kubernetes} Service
     * address (the in-cluster configuration): a proxy that needs it waits for itself on a node
     * where nothing has programmed that address yet.
     */
    public static String hintFor(ClientSettings settings) {
        return settings.origin().equals(InCluster.ORIGIN)
                ? "; this is the kubernetes Service address, which only a running proxy routes: give the agent a kubeconfig"
                        + " naming the control plane's own address (deploy/README.md)"
                : "";
    }

    public String address() {
        return address;
    }

    public String authentication() {
        return authentication;
    }

    /** A request is about to be sent. */
    public synchronized void attempt() {
        if (pendingSince < 0) {
            pendingSince = nanoTime.getAsLong();
        }
    }

    /** The API server answered (any status): the address is reachable. */
    public synchronized void answered() {
        long now = nanoTime.getAsLong();
        if (!reported.isEmpty()) {
            LOG.info("decision=api-server-reachable address={} after_ms={} reasons={}", address,
                    Duration.ofNanos(now - episodeStart).toMillis(), String.join(",", reported));
        }
        reported.clear();
        pendingSince = -1;
        episodeStart = -1;
    }

    /** A request failed before any answer (connection refused, timeout, DNS, TLS, …). */
    public synchronized void failed(ApiFailure failure) {
        report(failure.reason(), failure.detail(), nanoTime.getAsLong());
    }

    /** Whether an unreachability episode has been reported and not ended. */
    public synchronized boolean troubled() {
        return !reported.isEmpty();
    }

    /** Called every monitor tick: warns once a request has waited {@link #NO_ANSWER_WARNING}. */
    public synchronized void tick() {
        long now = nanoTime.getAsLong();
        if (pendingSince >= 0 && now - pendingSince >= NO_ANSWER_WARNING.toNanos() && reported.isEmpty()) {
            report("no-answer", "no TCP connection, TLS handshake or HTTP answer within "
                    + NO_ANSWER_WARNING.toSeconds() + " s (a blackholed or not yet routed address?)" + hint, now);
        }
    }

    private void report(String reason, String detail, long now) {
        if (episodeStart < 0) {
            episodeStart = pendingSince >= 0 ? pendingSince : now;
        }
        long waited = Duration.ofNanos(now - episodeStart).toMillis();
        if (reported.add(reason)) {
            LOG.warn("decision=api-server-unreachable address={} reason={} waited_ms={} auth=\"{}\" detail=\"{}\"", address,
                    reason, waited, authentication, detail);
        } else {
            LOG.debug("decision=api-server-unreachable address={} reason={} waited_ms={} repeat=true", address, reason, waited);
        }
    }
}
