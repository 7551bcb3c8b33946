package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;

import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Protocol;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.NodeInfo;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import java.util.List;

/** The ipvs tests' node (upstream's test node, NodePorts on every node address) and a few services. */
final class IpvsStates {

    private IpvsStates() {
    }

    static States.NodeSpec node() {
        return new States.NodeSpec("ipvs", false, new NodePortAddresses.MatchAll(), new NodePortAddresses.MatchAll());
    }

    static NodeState state(List<States.PortSpec> specs) {
        return state(specs, DataplaneSettings.Ipvs.DEFAULT);
    }

    /** The node with {@code ipvs} as its configured {@code ipvs} section. */
    static NodeState state(List<States.PortSpec> specs, DataplaneSettings.Ipvs ipvs) {
        States.NodeSpec node = node();
        node.ipvs = ipvs;
        return node.state(specs.stream().map(States.PortSpec::build).toList());
    }

    /** {@code state} with {@code addresses} as the node's recorded local addresses ({@code LocalAddressesObserved}). */
    static NodeState withLocalAddresses(NodeState state, List<IpAddress> addresses) {
        NodeInfo n = state.node();
        return new NodeState(new NodeInfo(n.name(), n.observed(), n.zone(), n.primaryIPs(), n.podCIDRs(), n.eligible(), addresses),
                state.settings(), state.synced(), state.ipv4(), state.ipv6());
    }

    /** A ClusterIP service with two endpoints, one of them local. */
    static States.PortSpec web() {
        return port("ns1", "web", "http", "172.30.0.41", 80).with(p -> {
            p.endpoints.add(ep("10.180.0.1", 8080, true));
            p.endpoints.add(ep("10.180.1.1", 8080, false));
            return p;
        });
    }

    /** A UDP ClusterIP service. */
    static States.PortSpec dns() {
        return port("kube-system", "dns", "dns", "172.30.0.10", 53).with(p -> {
            p.protocol = Protocol.UDP;
            p.endpoints.add(ep("10.180.0.5", 53, true));
            return p;
        });
    }
}
