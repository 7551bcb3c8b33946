package io.kproxy.listen;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a listener does when {@code accept} fails: pause, doubling from
 * {@link Limits#backoffInitial()} to {@link Limits#backoffMax()}, as Go's {@code net/http}
 * {@code Server.Serve} does for temporary errors. A connection waiting in the backlog keeps the
 * listening socket ready, so retrying at once on {@code EMFILE} spins: the admin socket's loop
 * printed 24,818 warnings in 30 s that way (issue 18). The failures are logged as one line when
 * they start and one summary per {@link Limits#reportEvery()} while they last, and the recovery
 * as one line.
 *
 * <p>Not thread-safe: one per accept loop.
 */
final class AcceptBackoff {

    private static final Logger LOG = LoggerFactory.getLogger(AcceptBackoff.class);

    private final String listener;
    private final Duration initial;
    private final Duration max;
    private final long reportEveryNanos;
    private Duration delay = Duration.ZERO;
    private long failures;
    private long unreported;
    private long lastReport;

    AcceptBackoff(String listener, Limits limits) {
        this.listener = listener;
        this.initial = limits.backoffInitial();
        this.max = limits.backoffMax();
        this.reportEveryNanos = limits.reportEvery().toNanos();
    }

    /** Records a failed {@code accept} and returns how long to pause before the next one. */
    Duration failed(Exception e) {
        delay = delay.isZero() ? initial : delay.multipliedBy(2).compareTo(max) > 0 ? max : delay.multipliedBy(2);
        failures++;
        unreported++;
        long now = System.nanoTime();
        if (failures == 1 || now - lastReport >= reportEveryNanos) {
            LOG.warn("decision=accept-backoff listener={} failures={} since-last-line={} pause={} error=\"{}\"", listener, failures, unreported,
                    delay, LogValues.escape(String.valueOf(e)));
            lastReport = now;
            unreported = 0;
        }
        return delay;
    }

    /** Records a successful {@code accept}, ending a run of failures. */
    void succeeded() {
        if (failures > 0) {
            LOG.info("decision=accept-recovered listener={} failures={}", listener, failures);
            failures = 0;
            unreported = 0;
            delay = Duration.ZERO;
        }
    }
}
