package io.kproxy.backend.iptables;

import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import java.util.List;

/**
 * The iptables mode's test node: NodePorts on every local address (nodePortAddresses matches
 * all) and on localhost (route_localnet), as pkg/proxy/iptables/proxier.go defaults.
 */
final class IptStates {

    private IptStates() {
    }

    static States.NodeSpec node() {
        return new States.NodeSpec("iptables", true, new NodePortAddresses.MatchAll(), new NodePortAddresses.MatchAll());
    }

    static NodeState state(List<ServicePortState> ports) {
        return node().state(ports);
    }
}
