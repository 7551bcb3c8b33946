package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.testkit.States;
import io.kproxy.events.SyncKind;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.Golden;
import io.kproxy.testkit.SettableClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The transactions of the engine's cycle against the strict fake kernel: the full first sync, a
 * no-op sync (empty), one endpoint change (one real-server operation), a Service removed (its
 * virtual servers, addresses and set members go), each as a golden file of operations.
 */
class IncrementalDiffTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private List<States.PortSpec> specs;
    private Cycle cycle;
    private MemoryIpvsKernel kernel;

    @BeforeEach
    void firstSync() throws Exception {
        specs = new ArrayList<>(List.of(IpvsStates.web(), IpvsStates.dns()));
        cycle = new Cycle(new SettableClock(T0), specs);
        kernel = cycle.kernel;
        assertThat(cycle.first().kind()).isEqualTo(SyncKind.FULL);
        Golden.assertMatches("ipvs/tx-full.txt", cycle.first().text());
    }

    private Transaction sync(List<States.PortSpec> next) throws Exception {
        return cycle.sync(next);
    }

    @Test
    void aSyncWithNoChangeIsEmpty() throws Exception {
        kernel.clearOperations();
        Transaction tx = sync(specs);
        assertThat(tx.isEmpty()).isTrue();
        assertThat(tx.text()).isEmpty();
        assertThat(kernel.operations()).isEmpty();
    }

    @Test
    void oneEndpointAddedTouchesOneRealServer() throws Exception {
        specs.set(0, IpvsStates.web().with(p -> {
            p.endpoints.add(ep("10.180.2.1", 8080, false));
            return p;
        }));
        kernel.clearOperations();
        Transaction tx = sync(specs);
        assertThat(tx.kind()).isEqualTo(SyncKind.PARTIAL);
        assertThat(tx.operations()).isEqualTo(1);
        Golden.assertMatches("ipvs/tx-one-endpoint.txt", tx.text());
        assertThat(kernel.operations()).containsExactly("add-rs -t 172.30.0.41:80 RealServer[address=10.180.2.1, port=8080, weight=1, forwarding=MASQUERADE]");
    }

    @Test
    void oneUdpEndpointRemovedIsDeletedAtOnce() throws Exception {
        specs.set(1, IpvsStates.dns().with(p -> {
            p.endpoints.add(ep("10.180.1.5", 53, false));
            return p;
        }));
        sync(specs);
        specs.set(1, IpvsStates.dns());
        Transaction tx = sync(specs);
        assertThat(tx.text()).isEqualTo("ipvsadm -d -u 172.30.0.10:53 -r 10.180.1.5:53\n");
        assertThat(cycle.backend.draining().due()).isEmpty();
        assertThat(tx.result().nextDeferredWork()).isEmpty();
    }

    @Test
    void aServiceRemovedTakesItsServersAddressesAndMembers() throws Exception {
        specs.remove(1);
        Transaction tx = sync(specs);
        Golden.assertMatches("ipvs/tx-service-removed.txt", tx.text());
        assertThat(kernel.dump()).doesNotContain("172.30.0.10").doesNotContain("10.180.0.5");
        assertThat(kernel.dump()).contains("172.30.0.41");
    }

    @Test
    void anExternalIpThatIsAlsoTheLoadBalancerIpIsOneVirtualServerAndGoesCleanly() throws Exception {
        String before = kernel.dump();
        specs.add(IpvsStates.web().with(p -> {
            p.name = "both";
            p.clusterIP = "172.30.0.98";
            p.externalIPs.add("192.168.99.40");
            p.lbIPs.add("192.168.99.40");
            return p;
        }));
        Transaction added = sync(specs);
        assertThat(added.text()).containsOnlyOnce("ipvsadm -A -t 192.168.99.40:80").containsOnlyOnce("ip address add 192.168.99.40/32");
        specs.removeLast();
        sync(specs);
        assertThat(kernel.dump()).isEqualTo(before);
    }

    @Test
    void theTextIsWhatApplyRuns() throws Exception {
        specs.add(IpvsStates.web().with(p -> {
            p.name = "web2";
            p.clusterIP = "172.30.0.99";
            p.affinity = 600;
            return p;
        }));
        NodeState s = IpvsStates.state(specs);
        Transaction tx = cycle.backend.diff(Optional.of(cycle.applied()), cycle.backend.render(s), SyncOptions.fullAt(T0));
        List<Op> ops = OpParser.parse(tx.text());
        assertThat(IpvsDiff.text(ops)).isEqualTo(tx.text());
        assertThat(ops).hasSize(tx.operations());
    }
}
