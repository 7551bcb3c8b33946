package io.kproxy.backend.testkit;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Probe;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reference row 37, the same for every mode: a UDP client keeps its conntrack entry, so after its
 * endpoint is replaced it keeps reaching the old one (still running) until the sync's conntrack
 * cleanup deletes the stale flow; then it reaches the new endpoint (upstream's
 * {@code pkg/proxy/conntrack/cleanup.go}). Blocks on the kernel and the probes.
 */
public final class ConntrackScenario {

    private ConntrackScenario() {
    }

    static ServicePortState dns(Addr a, String endpoint) {
        States.PortSpec p = port("ns1", "dns", "udp", a.cip(21), 53);
        p.protocol = Protocol.UDP;
        p.endpoints.add(ep(endpoint, 5353, true));
        return p.build();
    }

    /** Runs the scenario on the node's backend, with states built on {@code spec}'s node. */
    public static void udpFlowFollowsTheNewEndpointOnlyAfterConntrackCleanup(BackendNode node, States.NodeSpec spec, IpFamily family)
            throws KernelException {
        Backend backend = node.backend();
        Addr a = new Addr(family);
        NodeState before = spec.state(List.of(dns(a, a.pod(1))));
        Plan plan = backend.render(before);
        Transaction tx = backend.diff(Optional.empty(), plan, SyncOptions.at(Instant.now()));
        backend.apply(tx);
        Probe client = node.topo().probe("pod3", 1000);
        int sourcePort = family == IpFamily.IPV4 ? 40004 : 40006;
        // The flow's first datagram creates its conntrack entry; on a loaded machine the very first
        // IPv6 datagram can be lost while neighbours are resolved, and a resend of the same flow
        // (same source port) follows the same entry. Bounded.
        String first = "";
        for (int i = 0; i < 3 && first.isEmpty(); i++) {
            first = client.udp(a.pod(3), sourcePort, a.cip(21), 53).server();
        }
        assertThat(first).isEqualTo("pod1");

        ServicePortState moved = dns(a, a.pod(2));
        NodeState after = spec.state(List.of(moved));
        StateDelta delta = new StateDelta(Set.of(moved.name()), Set.of(moved.name()), false, false);
        Plan next = backend.renderIncremental(plan, after, delta);
        Transaction partial = backend.diff(Optional.of(tx.result()), next, SyncOptions.at(Instant.now()));
        assertThat(partial.isFull()).isFalse();
        backend.apply(partial);

        // The established UDP flow still goes to the deleted endpoint.
        for (int i = 0; i < 3; i++) {
            assertThat(client.udp(a.pod(3), sourcePort, a.cip(21), 53).server()).as("stale flow, try %d", i).isEqualTo("pod1");
        }
        List<ConntrackFilter> filters = backend.conntrackFilters(delta, after);
        assertThat(filters).singleElement().satisfies(f -> assertThat(f.keepReplySources()).containsExactly(States.ip(a.pod(2))));
        assertThat(backend.cleanConntrack(filters)).isGreaterThanOrEqualTo(1);
        assertThat(client.udp(a.pod(3), sourcePort, a.cip(21), 53).server()).isEqualTo("pod2");
    }
}
