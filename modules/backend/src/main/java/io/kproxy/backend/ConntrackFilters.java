package io.kproxy.backend;

import io.kproxy.model.IpAddress;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Upstream's {@code CleanStaleEntries} ({@code pkg/proxy/conntrack/cleanup.go},
 * docs/upstream-behaviour.md §1.4 row 37) as data, for every backend: for each UDP service port of
 * the delta's cleanup set that still has serving endpoints, the flows to its service IPs and
 * NodePort whose reply source is not one of them. Traffic policies, topology and terminating state
 * are ignored on purpose, as upstream does. A port that lost its last endpoint needs nothing: its
 * flows hit the REJECT rule and expire. Pure and thread-safe.
 */
public final class ConntrackFilters {

    private ConntrackFilters() {
    }

    /** The stale-flow filters after a sync that applied {@code delta}, leaving {@code state}. */
    public static List<ConntrackFilter> of(StateDelta delta, NodeState state) {
        List<ConntrackFilter> out = new ArrayList<>();
        for (ServicePortName name : delta.conntrackCleanup().stream().sorted().toList()) {
            if (name.protocol() != Protocol.UDP) {
                continue;
            }
            for (FamilyState fs : List.of(state.ipv4(), state.ipv6())) {
                ServicePortState s = fs.ports().get(name);
                if (s == null) {
                    continue;
                }
                Set<IpAddress> serving = s.endpoints().stream().filter(Endpoint::serving).map(Endpoint::ip).collect(Collectors.toSet());
                if (serving.isEmpty()) {
                    continue;
                }
                int port = s.port().value();
                out.add(new ConntrackFilter(fs.family(), Protocol.UDP, Optional.of(s.clusterIP()), port, serving));
                for (IpAddress ip : s.externalIPs()) {
                    out.add(new ConntrackFilter(fs.family(), Protocol.UDP, Optional.of(ip), port, serving));
                }
                for (IpAddress ip : s.loadBalancerIPs()) {
                    out.add(new ConntrackFilter(fs.family(), Protocol.UDP, Optional.of(ip), port, serving));
                }
                if (s.nodePort() != 0) {
                    out.add(new ConntrackFilter(fs.family(), Protocol.UDP, Optional.empty(), s.nodePort(), serving));
                }
            }
        }
        return out;
    }
}
