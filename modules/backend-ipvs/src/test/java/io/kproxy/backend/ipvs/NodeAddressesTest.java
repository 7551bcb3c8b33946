package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.cidr;
import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.ip;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.testkit.States;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.SettableClock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NodePort virtual servers go on every local address of the node the node state recorded (what
 * the backend read from the kernel, but {@code kube-ipvs0}'s, recorded by the engine), filtered by
 * {@code nodePortAddresses}, as upstream's {@code syncProxyRules} does with {@code nodeAddressSet}
 * (pkg/proxy/ipvs/proxier.go), and they follow the addresses from one sync to the next; a cluster
 * IP on one of them is skipped. The render never reads the kernel's addresses itself.
 */
class NodeAddressesTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private static States.PortSpec nodePortService() {
        return port("ns1", "np", "http", "172.30.0.50", 80).with(p -> {
            p.nodePort = 30050;
            p.endpoints.add(ep("10.180.0.1", 8080, true));
            return p;
        });
    }

    private final MemoryIpvsKernel kernel = new MemoryIpvsKernel();
    private final IpvsBackend backend = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(T0));

    @Test
    void nodePortsGoOnEveryLocalAddressAndFollowThem() throws Exception {
        NodeState state = local(IpvsStates.state(List.of(nodePortService())), "192.168.0.2", "203.0.113.1", "fd00:192::2");
        Plan first = backend.render(state);
        backend.apply(backend.diff(Optional.empty(), first, SyncOptions.at(T0)));
        assertThat(kernel.dump()).contains("-t 192.168.0.2:30050").contains("-t 203.0.113.1:30050");

        NodeState moved = local(state, "192.168.0.2", "192.0.2.50");
        Plan next = backend.renderIncremental(first, moved, StateDelta.between(state, moved));
        Transaction tx = backend.diff(Optional.of(first), next, SyncOptions.at(T0));
        assertThat(tx.text()).contains("ipvsadm -A -t 192.0.2.50:30050 -s rr").contains("ipvsadm -D -t 203.0.113.1:30050")
                .doesNotContain("192.168.0.2:30050");
        backend.apply(tx);
        assertThat(kernel.dump()).contains("-t 192.0.2.50:30050").doesNotContain("203.0.113.1");

        Plan same = backend.renderIncremental(next, moved, StateDelta.between(moved, moved));
        assertThat(backend.diff(Optional.of(next), same, SyncOptions.at(T0)).isEmpty()).as("unchanged addresses: a no-op sync").isTrue();
    }

    @Test
    void nodePortAddressesFilterTheLocalAddresses() {
        States.NodeSpec node = IpvsStates.node();
        node.v4NodePorts = new NodePortAddresses.Cidrs(List.of(cidr("203.0.113.0/24")));
        NodeState state = local(node.state(List.of(nodePortService().build())), "192.168.0.2", "203.0.113.1", "203.0.113.9");
        String text = backend.render(state).rulesetText();
        assertThat(text).contains("-A -t 203.0.113.1:30050").contains("-A -t 203.0.113.9:30050").doesNotContain("192.168.0.2:30050");
    }

    @Test
    void aClusterIpOnAnyLocalAddressIsSkipped() {
        String text = backend.render(local(IpvsStates.state(List.of(nodePortService())), "192.168.0.2", "172.30.0.50")).rulesetText();
        assertThat(text).contains("# skipped: cluster IP 172.30.0.50 is an address of this node").doesNotContain("-A -t");
    }

    @Test
    void withNoRecordedAddressesTheNodeObjectsAreUsed() {
        kernel.setLocalAddresses(List.of(ip("192.168.0.2"), ip("203.0.113.1")));
        String text = backend.render(IpvsStates.state(List.of(nodePortService()))).rulesetText();
        assertThat(text).as("the kernel's addresses are not read by the render").contains("-A -t 192.168.0.2:30050")
                .doesNotContain("203.0.113.1");
    }

    @Test
    void theBackendReportsTheKernelsAddressesForTheEngineToRecord() throws Exception {
        assertThat(backend.localAddresses()).as("a kernel that cannot tell").isEmpty();
        kernel.setLocalAddresses(List.of(ip("203.0.113.1"), ip("192.168.0.2")));
        assertThat(backend.localAddresses()).contains(List.of(ip("203.0.113.1"), ip("192.168.0.2")));
    }

    private static NodeState local(NodeState state, String... addresses) {
        return IpvsStates.withLocalAddresses(state, Arrays.stream(addresses).map(States::ip).toList());
    }
}
