package io.kproxy.bench.iptables;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Port;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.Endpoint;
import io.kproxy.state.FamilyState;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodeInfo;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The iptables benchmark cluster (docs/kernel-floor.md): N ClusterIP TCP services with 5 endpoints
 * each, IPv4, and one-endpoint changes on top of it.
 */
final class BenchStates {

    private BenchStates() {
    }

    static ServicePortName name(int i) {
        return new ServicePortName(new ServiceRef("ns" + (i % 50), "svc" + i), "http", Protocol.TCP);
    }

    static ServicePortState service(int i, int generation) {
        List<Endpoint> eps = new ArrayList<>();
        for (int e = 0; e < 5; e++) {
            // Generation g moves endpoint 0 to another pod address: a rolling update of one pod.
            int host = e == 0 && generation > 0 ? 100 + generation % 150 : e + 1;
            IpAddress ip = IpAddress.ofV4((10 << 24) | ((i / 200) << 16) | ((i % 200) << 8) | host);
            eps.add(new Endpoint(ip, new Port(8080), false, true, true, false, "node2", Set.of(), Set.of()));
        }
        eps.sort((a, b) -> a.hostPort().compareTo(b.hostPort()));
        IpAddress cip = IpAddress.ofV4((172 << 24) | (30 << 16) | (i + 1));
        return new ServicePortState(name(i), cip, new Port(80), 0, List.of(), List.of(), List.of(), false, false, 0, 0, eps, eps, List.of(),
                true, true, false);
    }

    static NodeState state(PersistentMap<ServicePortName, ServicePortState> v4) {
        NodeInfo node = new NodeInfo("bench-node", true, "", List.of(IpAddress.parse("192.168.0.2")), List.of(), true);
        DataplaneSettings settings = new DataplaneSettings("iptables", false, 14, 14, true, List.of(Cidr.parse("172.30.0.0/16")));
        return new NodeState(node, settings, true,
                new FamilyState(IpFamily.IPV4, v4, List.of(IpAddress.parse("192.168.0.2")),
                        new NodePortAddresses.MatchAll(), new LocalDetector.Cidrs(List.of(Cidr.parse("10.0.0.0/8")))),
                new FamilyState(IpFamily.IPV6, PersistentMap.empty(), List.of(), new NodePortAddresses.MatchAll(), new LocalDetector.None()));
    }

    static PersistentMap<ServicePortName, ServicePortState> services(int n) {
        PersistentMap<ServicePortName, ServicePortState> m = PersistentMap.empty();
        for (int i = 0; i < n; i++) {
            m = m.plus(name(i), service(i, 0));
        }
        return m;
    }

    /** The state after one endpoint of service {@code i} moved, and the delta saying so. */
    record Change(PersistentMap<ServicePortName, ServicePortState> services, NodeState state, StateDelta delta) {
    }

    static Change endpointChange(PersistentMap<ServicePortName, ServicePortState> services, int i, int generation) {
        PersistentMap<ServicePortName, ServicePortState> next = services.plus(name(i), service(i, generation));
        return new Change(next, state(next), new StateDelta(Set.of(name(i)), Set.of(), false, false));
    }
}
