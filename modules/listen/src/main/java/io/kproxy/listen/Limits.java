package io.kproxy.listen;

import java.time.Duration;

/**
 * What one listener lets a client cost (docs/operations.md, "Input limits of the endpoints").
 * Immutable; every duration positive.
 *
 * @param requestTimeout  from accepting a connection, or from the first byte of a later request on
 *                        a kept-alive one, until the whole request head (request line and headers,
 *                        or the admin socket's request line) has arrived; a slow or stalled client
 *                        is closed then (Go's {@code http.Server.ReadHeaderTimeout})
 * @param idleTimeout     how long a kept-alive connection may wait for its next request
 *                        ({@code http.Server.IdleTimeout})
 * @param writeTimeout    how long answering one request may take, including a client that does
 *                        not read its answer ({@code http.Server.WriteTimeout})
 * @param maxConnections  connections open at once (in a {@link Slots} shared by listeners, the
 *                        whole group's); beyond it the connection waiting longest for its client
 *                        is closed, or the new one when every connection is being answered
 * @param maxRequestBytes the longest request head; a longer one is answered 431 (HTTP) or refused
 *                        (admin socket) and the connection closed
 * @param backoffInitial  the first pause after {@code accept} fails (out of file descriptors,
 *                        {@code EMFILE}/{@code ENFILE}, buffers); doubled per further failure
 * @param backoffMax      the longest pause after a failed {@code accept}
 * @param reportEvery     failures of {@code accept} and shed connections are logged as one
 *                        summary line per this period, never one line per event
 */
public record Limits(Duration requestTimeout, Duration idleTimeout, Duration writeTimeout, int maxConnections, int maxRequestBytes,
        Duration backoffInitial, Duration backoffMax, Duration reportEvery) {

    /**
     * The HTTP listeners' limits. Upstream kube-proxy's servers have none ({@code http.Server{Handler: mux}}
     * in {@code cmd/kube-proxy/app/server.go}, {@code stdHTTPServerFactory} in
     * {@code pkg/proxy/healthcheck/common.go}); these are generous for a probe or a scrape, which
     * sends a few hundred bytes at once. The accept backoff is Go's {@code net/http} one (5 ms
     * doubling to 1 s).
     */
    public static final Limits HTTP = new Limits(Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(30), 128, 8 * 1024,
            Duration.ofMillis(5), Duration.ofSeconds(1), Duration.ofSeconds(10));

    /**
     * The admin socket's: one short request line per connection from a local operator's command;
     * the answer may wait for a sync (the server adds the sync timeout to the write timeout).
     */
    public static final Limits ADMIN = new Limits(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10), 16, 16 * 1024,
            Duration.ofMillis(5), Duration.ofSeconds(1), Duration.ofSeconds(10));

    public Limits {
        for (Duration d : new Duration[] {requestTimeout, idleTimeout, writeTimeout, backoffInitial, backoffMax, reportEvery}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("every duration must be positive");
            }
        }
        if (backoffMax.compareTo(backoffInitial) < 0) {
            throw new IllegalArgumentException("backoffMax must not be shorter than backoffInitial");
        }
        if (maxConnections < 1 || maxRequestBytes < 64) {
            throw new IllegalArgumentException("maxConnections must be at least 1 and maxRequestBytes at least 64");
        }
    }

    /** These limits with other timeouts (tests use short ones). */
    public Limits withTimeouts(Duration request, Duration idle, Duration write) {
        return new Limits(request, idle, write, maxConnections, maxRequestBytes, backoffInitial, backoffMax, reportEvery);
    }

    /** These limits with another connection cap. */
    public Limits withMaxConnections(int n) {
        return new Limits(requestTimeout, idleTimeout, writeTimeout, n, maxRequestBytes, backoffInitial, backoffMax, reportEvery);
    }

    /** These limits with another accept backoff and report period. */
    public Limits withBackoff(Duration initial, Duration max, Duration report) {
        return new Limits(requestTimeout, idleTimeout, writeTimeout, maxConnections, maxRequestBytes, initial, max, report);
    }
}
