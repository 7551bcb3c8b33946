package io.kproxy.engine;

import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.Endpoint;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The per-service health-check node ports of upstream's {@code ServiceHealthServer}
 * ({@code pkg/proxy/healthcheck/service_health.go}, docs/upstream-behaviour.md §1.2 row 24): every
 * Service of type LoadBalancer with {@code externalTrafficPolicy: Local} gets an HTTP server on its
 * {@code healthCheckNodePort} that answers 200 when this node has a local, ready endpoint for it
 * and the proxy is healthy, else 503. This class is the model (which ports, how many local
 * endpoints, the answer); the application runs the servers. It is updated after each successful
 * sync with the state that was programmed, so the answer never runs ahead of the kernel, and
 * incrementally (only the Services whose ports the sync changed), so a sync at 10,000 Services
 * does not walk them all.
 *
 * <p>Thread-safe; listeners run on the updating thread (the sync loop) and must not block.
 */
public final class ServiceHealthChecks {

    /**
     * One health-check port.
     *
     * @param service        the Service
     * @param port           its {@code healthCheckNodePort}
     * @param localEndpoints distinct IPs of this node's ready endpoints for it, all ports and
     *                       families together (upstream's {@code LocalReadyEndpoints}; serving but
     *                       terminating endpoints do not count)
     */
    public record Check(ServiceRef service, int port, int localEndpoints) {
    }

    private final ProxyHealth health;
    private final List<Consumer<Map<ServiceRef, Check>>> listeners = new CopyOnWriteArrayList<>();
    private volatile Map<ServiceRef, Check> current = Map.of();

    ServiceHealthChecks(ProxyHealth health) {
        this.health = health;
    }

    /** The checks of {@code state}, by Service. Pure. */
    public static Map<ServiceRef, Check> of(NodeState state) {
        Map<ServiceRef, Integer> ports = new HashMap<>();
        Map<ServiceRef, Set<IpAddress>> local = new HashMap<>();
        for (IpFamily f : IpFamily.values()) {
            for (ServicePortState p : state.family(f).ports().values()) {
                if (p.healthCheckNodePort() == 0) {
                    continue;
                }
                ServiceRef svc = p.name().service();
                ports.putIfAbsent(svc, p.healthCheckNodePort());
                Set<IpAddress> ips = local.computeIfAbsent(svc, k -> new HashSet<>());
                for (Endpoint ep : p.endpoints()) {
                    if (ep.local() && ep.ready()) {
                        ips.add(ep.ip());
                    }
                }
            }
        }
        Map<ServiceRef, Check> out = new TreeMap<>();
        ports.forEach((svc, port) -> out.put(svc, new Check(svc, port, local.get(svc).size())));
        return Collections.unmodifiableMap(out);
    }

    /** One service port's share of its Service's check: its health-check port and local ready endpoint IPs. */
    private record Share(int port, Set<IpAddress> localReady) {
    }

    /** A port of one family, in {@link #of}'s order: IPv4 first, then by service port. */
    private record PortKey(IpFamily family, ServicePortName name) implements Comparable<PortKey> {
        @Override
        public int compareTo(PortKey o) {
            int c = family.compareTo(o.family);
            return c != 0 ? c : name.compareTo(o.name);
        }
    }

    /** The ports with a health-check port, by Service; confined to the sync thread. */
    private final Map<ServiceRef, TreeMap<PortKey, Share>> shares = new HashMap<>();

    /**
     * Moves the checks to those of the programmed {@code after}, from {@code before}, the state of
     * the previous update (the empty state before the first). Only the ports the two states' maps
     * do not share are visited ({@link PersistentMap#diff}, with their new values: no lookup per
     * port), and only the Services of those ports are recomputed: O(change), and O(ports) on the
     * first update. Tells listeners when the checks changed. Sync thread only.
     */
    void update(NodeState before, NodeState after) {
        Set<ServiceRef> touched = new HashSet<>();
        for (IpFamily f : IpFamily.values()) {
            before.family(f).ports().diff(after.family(f).ports(), new PersistentMap.DiffVisitor<>() {
                @Override
                public void added(ServicePortName name, ServicePortState p) {
                    share(f, name, p, touched);
                }

                @Override
                public void removed(ServicePortName name, ServicePortState p) {
                    share(f, name, null, touched);
                }

                @Override
                public void changed(ServicePortName name, ServicePortState was, ServicePortState p) {
                    share(f, name, p, touched);
                }
            });
        }
        if (touched.isEmpty()) {
            return;
        }
        Map<ServiceRef, Check> next = new TreeMap<>(current);
        for (ServiceRef svc : touched) {
            TreeMap<PortKey, Share> byPort = shares.get(svc);
            if (byPort == null) {
                next.remove(svc);
                continue;
            }
            Set<IpAddress> local = new HashSet<>();
            byPort.values().forEach(sh -> local.addAll(sh.localReady()));
            next.put(svc, new Check(svc, byPort.firstEntry().getValue().port(), local.size()));
        }
        if (next.equals(current)) {
            return;
        }
        current = Collections.unmodifiableMap(next);
        for (Consumer<Map<ServiceRef, Check>> l : listeners) {
            l.accept(current);
        }
    }

    /** Sets the share of port {@code name} in family {@code f} from its entry {@code p} (null: gone); adds its Service to {@code touched} when that may change its check. */
    private void share(IpFamily f, ServicePortName name, ServicePortState p, Set<ServiceRef> touched) {
        ServiceRef svc = name.service();
        PortKey key = new PortKey(f, name);
        TreeMap<PortKey, Share> byPort = shares.get(svc);
        if (p == null || p.healthCheckNodePort() == 0) {
            if (byPort != null && byPort.remove(key) != null) {
                touched.add(svc);
                if (byPort.isEmpty()) {
                    shares.remove(svc);
                }
            }
            return;
        }
        Set<IpAddress> ips = new HashSet<>();
        for (Endpoint ep : p.endpoints()) {
            if (ep.local() && ep.ready()) {
                ips.add(ep.ip());
            }
        }
        shares.computeIfAbsent(svc, k -> new TreeMap<>()).put(key, new Share(p.healthCheckNodePort(), ips));
        touched.add(svc);
    }

    /** The checks in force. */
    public Map<ServiceRef, Check> current() {
        return current;
    }

    /** Calls {@code listener} with the current checks now and with every change later. */
    public void subscribe(Consumer<Map<ServiceRef, Check>> listener) {
        listeners.add(listener);
        listener.accept(current);
    }

    /**
     * The answer of {@code service}'s health-check port: upstream's JSON (tab-indented, as its
     * dedented template), 200 when it has local endpoints and the proxy is healthy, else 503;
     * empty when the Service has no check (upstream writes nothing then).
     */
    public Optional<ProxyHealth.Response> answer(ServiceRef service) {
        Check c = current.get(service);
        if (c == null) {
            return Optional.empty();
        }
        boolean healthy = health.isHealthy();
        String body = "{\n\t\"service\": {\n\t\t\"namespace\": \"" + jsonEscape(service.namespace()) + "\",\n\t\t\"name\": \""
                + jsonEscape(service.name()) + "\"\n\t},\n\t\"localEndpoints\": " + c.localEndpoints() + ",\n\t\"serviceProxyHealthy\": "
                + healthy + "\n}";
        return Optional.of(new ProxyHealth.Response(c.localEndpoints() != 0 && healthy ? 200 : 503, body));
    }

    private static String jsonEscape(String s) {
        // Kubernetes names are DNS labels; escaping is belt and braces for a crafted journal.
        StringBuilder sb = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.toString();
    }
}
