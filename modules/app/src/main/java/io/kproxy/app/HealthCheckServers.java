package io.kproxy.app;

import com.sun.net.httpserver.HttpServer;
import io.kproxy.engine.Engine;
import io.kproxy.engine.ProxyHealth;
import io.kproxy.engine.ServiceHealthChecks;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-service health-check node port servers (upstream's {@code ServiceHealthServer},
 * {@code pkg/proxy/healthcheck/service_health.go}, reference row 24): one HTTP server per
 * Service of type LoadBalancer with {@code externalTrafficPolicy: Local}, on every node IP that
 * accepts NodePorts (all addresses when NodePorts match all), answering any path with the
 * engine's {@link ServiceHealthChecks#answer}. Servers open and close as the programmed state
 * changes; a Service whose port changes is closed and reopened; a port that cannot be bound is
 * logged and retried at the next change, as upstream does.
 *
 * <p>Updates arrive on the engine's sync thread; this class is synchronized and binds sockets
 * there (a few per change, only when the set of checks changes).
 */
final class HealthCheckServers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HealthCheckServers.class);

    private record Open(int port, List<HttpServer> servers) {
    }

    private final Engine engine;
    private final Map<ServiceRef, Open> open = new HashMap<>();
    private boolean closed;

    HealthCheckServers(Engine engine) {
        this.engine = engine;
    }

    /** Follows the engine's checks from now on. */
    void start() {
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
            e.getValue().servers().forEach(s -> s.stop(0));
            return true;
        });
        for (ServiceHealthChecks.Check c : checks.values()) {
            if (open.containsKey(c.service())) {
                continue;
            }
            List<HttpServer> servers = new ArrayList<>();
            try {
                for (InetSocketAddress address : addresses(engine.state().node(), c.port())) {
                    HttpServer s = Http.bind(address);
                    ServiceRef svc = c.service();
                    s.createContext("/", ex -> {
                        var answer = engine.healthChecks().answer(svc);
                        if (answer.isPresent()) {
                            ProxyHealth.Response r = answer.get();
                            Http.json(ex, r.status(), r.body());
                        } else {
                            ex.close(); // upstream writes nothing for a check being closed
                        }
                    });
                    s.start();
                    servers.add(s);
                }
                open.put(c.service(), new Open(c.port(), servers));
                LOG.info("decision=open-healthcheck service={} port={} listeners={}", c.service(), c.port(), servers.size());
            } catch (IOException e) {
                servers.forEach(s -> s.stop(0));
                LOG.error("decision=skip-healthcheck reason=FailedToStartServiceHealthcheck service={} port={} error=\"{}\"", c.service(),
                        c.port(), e.getMessage());
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
        open.values().forEach(o -> o.servers().forEach(s -> s.stop(0)));
        open.clear();
    }
}
