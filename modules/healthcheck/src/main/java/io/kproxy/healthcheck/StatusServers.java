package io.kproxy.healthcheck;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.JsonText;
import io.kproxy.config.ProxyConfig;
import io.kproxy.engine.Engine;
import io.kproxy.engine.ProxyHealth;
import io.kproxy.listen.HttpListener;
import io.kproxy.listen.Limits;
import io.kproxy.listen.Slots;
import io.kproxy.model.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two servers upstream kube-proxy runs (docs/upstream-behaviour.md §1.6 rows 47 and 50), bound
 * before anything else is touched and started once the engine exists:
 *
 * <ul>
 *   <li>health, {@code healthzBindAddress} (default {@code 0.0.0.0:10256}): {@code /healthz} and
 *       {@code /livez} with upstream's JSON bodies and status codes;</li>
 *   <li>metrics, {@code metricsBindAddress} (default {@code 127.0.0.1:10249}; empty disables it):
 *       {@code /metrics} (Prometheus text), {@code /healthz} ({@code ok}), {@code /proxyMode}
 *       (the mode as text) and {@code /configz} (the configuration in force as JSON, under
 *       {@code kubeproxy.config.k8s.io}).</li>
 * </ul>
 *
 * <p>Each server is an {@link HttpListener} with its own connection cap and the timeouts and
 * request-size limit of {@link Limits#HTTP} (docs/operations.md, "Input limits of the
 * endpoints"): a flood on the public health port cannot take the metrics port's places, nor the
 * agent's file descriptors. A port that cannot be bound is also reported to {@link BindFailures}
 * (the application records upstream's warning Event on the node: docs/operations.md, "Events").
 * Handlers run on virtual threads and never block on the engine. Not thread-safe to start or stop
 * concurrently.
 */
public final class StatusServers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusServers.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    /** The metrics port's cap: it is on loopback by default, for one or two scrapers. */
    static final int METRICS_CONNECTIONS = 32;

    /** A bound listener with the slots its connections take. */
    private record Server(HttpListener listener, Slots slots) {
        void close() {
            listener.close();
            slots.close();
        }
    }

    private final List<Server> servers = new ArrayList<>();
    private final Optional<Server> health;
    private final Optional<Server> metrics;

    private StatusServers(Optional<Server> health, Optional<Server> metrics) {
        this.health = health;
        this.metrics = metrics;
        health.ifPresent(servers::add);
        metrics.ifPresent(servers::add);
    }

    /**
     * Binds the configured addresses with {@link Limits#HTTP}. A port that cannot be bound is
     * logged and that server skipped, unless {@code bindAddressHardFail}.
     *
     * @throws IOException when a bind fails and {@code bindAddressHardFail} is set
     */
    public static StatusServers bind(ProxyConfig config) throws IOException {
        return bind(config, BindFailures.none());
    }

    /**
     * {@link #bind(ProxyConfig)}, reporting a port that cannot be bound to {@code failures}
     * (where the application records upstream's warning Event on the node).
     */
    public static StatusServers bind(ProxyConfig config, BindFailures failures) throws IOException {
        return bind(config, Limits.HTTP, Limits.HTTP.withMaxConnections(METRICS_CONNECTIONS), failures);
    }

    /** {@link #bind(ProxyConfig)} with other limits (tests use short timeouts). */
    public static StatusServers bind(ProxyConfig config, Limits healthLimits, Limits metricsLimits) throws IOException {
        return bind(config, healthLimits, metricsLimits, BindFailures.none());
    }

    /** {@link #bind(ProxyConfig, BindFailures)} with other limits. */
    public static StatusServers bind(ProxyConfig config, Limits healthLimits, Limits metricsLimits, BindFailures failures)
            throws IOException {
        Optional<Server> h = bindOne("healthz", config.healthzBindAddress(), config.bindAddressHardFail(), healthLimits,
                error -> failures.healthz(config.healthzBindAddress(), error));
        Optional<Server> m;
        try {
            m = bindOne("metrics", config.metricsBindAddress(), config.bindAddressHardFail(), metricsLimits,
                    error -> failures.metrics(config.metricsBindAddress(), error));
        } catch (IOException e) {
            h.ifPresent(Server::close);
            throw e;
        }
        return new StatusServers(h, m);
    }

    private static Optional<Server> bindOne(String what, String hostPort, boolean hardFail, Limits limits, Consumer<String> failed)
            throws IOException {
        if (hostPort.isBlank()) {
            LOG.info("decision=no-{}-server reason=\"address is empty\"", what);
            return Optional.empty();
        }
        InetSocketAddress address = Http.address(hostPort);
        Slots slots = new Slots(what, limits);
        try {
            HttpListener s = HttpListener.bind(what, address, slots, limits);
            LOG.info("decision=bind-{}-server address={} maxConnections={} requestTimeout={} idleTimeout={} maxRequestBytes={}", what,
                    hostPort, limits.maxConnections(), limits.requestTimeout(), limits.idleTimeout(), limits.maxRequestBytes());
            return Optional.of(new Server(s, slots));
        } catch (IOException e) {
            slots.close();
            failed.accept(String.valueOf(e.getMessage()));
            if (hardFail) {
                throw new IOException("cannot bind the " + what + " server on " + hostPort + ": " + e.getMessage(), e);
            }
            LOG.error("decision=continue-without-{}-server address={} error=\"{}\"", what, hostPort, e.getMessage());
            return Optional.empty();
        }
    }

    /** Installs the handlers and starts serving. */
    public void start(Engine engine, ProxyConfig config) {
        String configz = JsonText.write(Json.obj("kubeproxy.config.k8s.io", ConfigTrees.toTree(config)));
        health.ifPresent(s -> {
            Map<String, HttpListener.Handler> routes = Map.of(
                    "/healthz", path -> response(engine.health().healthz()),
                    "/livez", path -> response(engine.health().livez()));
            s.listener().start(path -> Optional.ofNullable(routes.get(path)));
        });
        metrics.ifPresent(s -> {
            Map<String, HttpListener.Handler> routes = Map.of(
                    "/metrics", path -> Http.text("text/plain; version=0.0.4; charset=utf-8", engine.metrics().scrape()),
                    "/healthz", path -> Http.text(TEXT, "ok"),
                    "/proxyMode", path -> Http.text(TEXT, config.mode().apiName()),
                    "/configz", path -> Http.json(200, configz));
            s.listener().start(path -> Optional.ofNullable(routes.get(path)));
        });
    }

    private static HttpListener.Response response(ProxyHealth.Response r) {
        return Http.json(r.status(), r.body());
    }

    /** Where the health server listens (the real port when 0 was asked for). */
    public Optional<InetSocketAddress> healthAddress() {
        return health.map(s -> s.listener().address());
    }

    /** Where the metrics server listens. */
    public Optional<InetSocketAddress> metricsAddress() {
        return metrics.map(s -> s.listener().address());
    }

    @Override
    public void close() {
        servers.forEach(Server::close);
    }
}
