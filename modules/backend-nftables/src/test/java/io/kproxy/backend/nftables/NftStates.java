package io.kproxy.backend.nftables;

import static io.kproxy.backend.testkit.States.cidr;

import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import java.util.List;

/**
 * The nftables mode's test node: NodePorts on the primary node IPs only (nodePortAddresses
 * {@code primary}), no localhost NodePorts (pkg/proxy/nftables/proxier.go has none).
 */
final class NftStates {

    private NftStates() {
    }

    static States.NodeSpec node() {
        return new States.NodeSpec("nftables", false, new NodePortAddresses.Cidrs(List.of(cidr("192.168.0.2/32"))),
                new NodePortAddresses.Cidrs(List.of(cidr("fd00:192::2/128"))));
    }

    static NodeState state(List<ServicePortState> ports) {
        return node().state(ports);
    }
}
