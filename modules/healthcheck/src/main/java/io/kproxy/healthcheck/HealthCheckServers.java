package io.kproxy.healthcheck;

import io.kproxy.engine.Engine;
import io.kproxy.engine.ServiceHealthChecks;
import io.kproxy.listen.HttpListener;
import io.kproxy.listen.Limits;
import io.kproxy.listen.Slots;
import io.kproxy.model.Cidr;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-service health-check node port servers (upstream's {@code ServiceHealthServer},
 * {@code pkg/proxy/healthcheck/service_health.go}, docs/upstream-behaviour.md §1.2 row 24): one
 * HTTP server per Service of type LoadBalancer with {@code externalTrafficPolicy: Local}, on every
 * node IP that accepts NodePorts (all addresses when NodePorts match all), answering any path with
 * the engine's {@link ServiceHealthChecks#answer}. Servers open and close as the programmed state
 * changes; a Service whose port changes is closed and reopened; a port that cannot be bound is
 * logged, reported to {@link BindFailures} (the application records upstream's
 * {@code FailedToStartServiceHealthcheck} warning Event on the Service: docs/operations.md,
 * "Events"), and retried at the next change, as upstream does.
 *
 * <p>Every port is an {@link HttpListener} with the limits of {@link Limits#HTTP}, and all of
 * them share one {@link Slots} of {@link #CONNECTIONS} places: the number of Services does not
 * multiply the descriptors a flood can take (docs/operations.md, "Input limits of the endpoints").
 *
 * <p>Updates arrive on the engine's sync thread; this class is synchronized and binds sockets
 * there (a few per change, only when the set of checks changes).
 */
public final class HealthCheckServers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HealthCheckServers.class);

    /** Connections open at once over every health-check port of every Service. */
    static final int CONNECTIONS = 256;

    private record Open(int port, List<HttpListener> servers) {
    }

    private final Engine engine;
    private final Limits limits;
    private final Slots slots;
    private final Map<ServiceRef, Open> open = new HashMap<>();
    private final BindFailures failures;
    private boolean closed;

    public HealthCheckServers(Engine engine) {
        this(engine, BindFailures.none());
    }

    /** Reporting a port it cannot bind to {@code failures} (upstream's {@code FailedToStartServiceHealthcheck} warning). */
    public HealthCheckServers(Engine engine, BindFailures failures) {
        this(engine, Limits.HTTP.withMaxConnections(CONNECTIONS), failures);
    }

    /** With other limits (tests use short timeouts); {@code limits.maxConnections()} is the group's. */
    public HealthCheckServers(Engine engine, Limits limits) {
        this(engine, limits, BindFailures.none());
    }

    public HealthCheckServers(Engine engine, Limits limits, BindFailures failures) {
        this.engine = engine;
        this.limits = limits;
        this.slots = new Slots("healthcheck", limits);
        this.failures = failures;
    }

    /** Follows the engine's checks from now on. */
    public void start() {
        engine.healthChecks().subscribe(this::sync);
    }

    private synchronized void sync(Map<ServiceRef, ServiceHealthChecks.Check> checks) {
        if (closed) {
            return;
        }
        open.entrySet().removeIf(e -> {
            ServiceHealthChecks.Check want = checks.get(e.getKey());
            if (want != null && want.port() == e.getValue().port()) {
                return false;
            }
            LOG.info("decision=close-healthcheck service={} port={}", e.getKey(), e.getValue().port());
            e.getValue().servers().forEach(HttpListener::close);
            return true;
        });
        for (ServiceHealthChecks.Check c : checks.values()) {
            if (open.containsKey(c.service())) {
                continue;
            }
            List<HttpListener> servers = new ArrayList<>();
            try {
                ServiceRef svc = c.service();
                // Any path (upstream's hcHandler serves "/" and below). A check being closed
                // answers what upstream's handler writes then: nothing, which Go sends as an empty 200.
                HttpListener.Handler handler = path -> engine.healthChecks().answer(svc).map(r -> Http.json(r.status(), r.body()))
                        .orElse(new HttpListener.Response(200, "", ""));
                for (InetSocketAddress address : addresses(engine.state().node(), c.port())) {
                    HttpListener s = HttpListener.bind("healthcheck", address, slots, limits);
                    servers.add(s);
                    s.start(path -> Optional.of(handler));
                }
                open.put(c.service(), new Open(c.port(), servers));
                LOG.info("decision=open-healthcheck service={} port={} listeners={}", c.service(), c.port(), servers.size());
            } catch (IOException e) {
                servers.forEach(HttpListener::close);
                LOG.error("decision=skip-healthcheck reason=FailedToStartServiceHealthcheck service={} port={} error=\"{}\"", c.service(),
                        c.port(), e.getMessage());
                failures.serviceHealthCheck(c.service(), c.port(), String.valueOf(e.getMessage()));
            }
        }
    }

    /**
     * Where upstream listens: the wildcard when NodePorts match every address (in either
     * family), otherwise each local address inside the NodePort CIDRs.
     */
    static List<InetSocketAddress> addresses(NodeState state, int port) throws SocketException {
        List<Cidr> cidrs = new ArrayList<>();
        for (IpFamily f : IpFamily.values()) {
            switch (state.family(f).nodePortAddresses()) {
                case NodePortAddresses.MatchAll m -> {
                    return List.of(new InetSocketAddress(port));
                }
                case NodePortAddresses.Cidrs c -> cidrs.addAll(c.cidrs());
            }
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
            for (InetAddress a : nic.inetAddresses().toList()) {
                IpAddress ip;
                try {
                    ip = IpAddress.parse("address", a.getHostAddress().replaceFirst("%.*$", ""));
                } catch (InvalidValueException e) {
                    continue;
                }
                if (cidrs.stream().anyMatch(c -> c.contains(ip))) {
                    out.add(new InetSocketAddress(a, port));
                }
            }
        }
        return out;
    }

    @Override
    public synchronized void close() {
        closed = true;
        open.values().forEach(o -> o.servers().forEach(HttpListener::close));
        open.clear();
        slots.close();
    }
}
