package io.kproxy.app;

import com.sun.net.httpserver.HttpServer;
import io.kproxy.config.ConfigLoader;
import io.kproxy.config.ConfigText;
import io.kproxy.config.ProxyConfig;
import io.kproxy.engine.Engine;
import io.kproxy.engine.ProxyHealth;
import io.kproxy.model.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two servers upstream kube-proxy runs (reference rows 47 and 50), bound before anything
 * else is touched and started once the engine exists:
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
 * <p>Handlers run on virtual threads and never block on the engine. Not thread-safe to start or
 * stop concurrently.
 */
final class StatusServers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StatusServers.class);

    private final List<HttpServer> servers = new ArrayList<>();
    private final Optional<HttpServer> health;
    private final Optional<HttpServer> metrics;

    private StatusServers(Optional<HttpServer> health, Optional<HttpServer> metrics) {
        this.health = health;
        this.metrics = metrics;
        health.ifPresent(servers::add);
        metrics.ifPresent(servers::add);
    }

    /**
     * Binds the configured addresses. A port that cannot be bound is logged and that server
     * skipped, unless {@code bindAddressHardFail}.
     *
     * @throws IOException when a bind fails and {@code bindAddressHardFail} is set
     */
    static StatusServers bind(ProxyConfig config) throws IOException {
        Optional<HttpServer> h = bindOne("healthz", config.healthzBindAddress(), config.bindAddressHardFail());
        Optional<HttpServer> m;
        try {
            m = bindOne("metrics", config.metricsBindAddress(), config.bindAddressHardFail());
        } catch (IOException e) {
            h.ifPresent(s -> s.stop(0));
            throw e;
        }
        return new StatusServers(h, m);
    }

    private static Optional<HttpServer> bindOne(String what, String hostPort, boolean hardFail) throws IOException {
        if (hostPort.isBlank()) {
            LOG.info("decision=no-{}-server reason=\"address is empty\"", what);
            return Optional.empty();
        }
        InetSocketAddress address = Http.address(hostPort);
        try {
            HttpServer s = Http.bind(address);
            LOG.info("decision=bind-{}-server address={}", what, hostPort);
            return Optional.of(s);
        } catch (IOException e) {
            if (hardFail) {
                throw new IOException("cannot bind the " + what + " server on " + hostPort + ": " + e.getMessage(), e);
            }
            LOG.error("decision=continue-without-{}-server address={} error=\"{}\"", what, hostPort, e.getMessage());
            return Optional.empty();
        }
    }

    /** Installs the handlers and starts serving. */
    void start(Engine engine, ProxyConfig config) {
        String configz = ConfigText.toJson(Json.obj("kubeproxy.config.k8s.io", ConfigLoader.toTree(config)));
        health.ifPresent(s -> {
            s.createContext("/healthz", ex -> {
                if (Http.exact(ex, "/healthz")) {
                    ProxyHealth.Response r = engine.health().healthz();
                    Http.json(ex, r.status(), r.body());
                }
            });
            s.createContext("/livez", ex -> {
                if (Http.exact(ex, "/livez")) {
                    ProxyHealth.Response r = engine.health().livez();
                    Http.json(ex, r.status(), r.body());
                }
            });
            s.start();
        });
        metrics.ifPresent(s -> {
            s.createContext("/metrics", ex -> {
                if (Http.exact(ex, "/metrics")) {
                    Http.text(ex, 200, "text/plain; version=0.0.4; charset=utf-8", engine.metrics().scrape());
                }
            });
            s.createContext("/healthz", ex -> {
                if (Http.exact(ex, "/healthz")) {
                    Http.text(ex, 200, "text/plain; charset=utf-8", "ok");
                }
            });
            s.createContext("/proxyMode", ex -> {
                if (Http.exact(ex, "/proxyMode")) {
                    Http.text(ex, 200, "text/plain; charset=utf-8", config.mode().apiName());
                }
            });
            s.createContext("/configz", ex -> {
                if (Http.exact(ex, "/configz")) {
                    Http.json(ex, 200, configz);
                }
            });
            s.start();
        });
    }

    /** Where the health server listens (the real port when 0 was asked for). */
    Optional<InetSocketAddress> healthAddress() {
        return health.map(HttpServer::getAddress);
    }

    /** Where the metrics server listens. */
    Optional<InetSocketAddress> metricsAddress() {
        return metrics.map(HttpServer::getAddress);
    }

    @Override
    public void close() {
        servers.forEach(s -> s.stop(0));
    }
}
