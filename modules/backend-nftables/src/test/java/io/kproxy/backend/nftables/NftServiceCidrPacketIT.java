package io.kproxy.backend.nftables;

import static io.kproxy.testkit.netns.Flow.DROP;
import static io.kproxy.testkit.netns.Flow.REJECT;
import static io.kproxy.testkit.netns.Flow.reaches;
import static io.kproxy.testkit.netns.Flow.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.BackendNode;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceCidrFixture;
import io.kproxy.testkit.ServiceFixture;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Flow;
import io.kproxy.testkit.netns.Topology;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Packets, with the service ranges learned from a ServiceCIDR through the fold (no ranges
 * configured): traffic to an address of the range that no Service holds is dropped, as upstream's
 * nftables mode does; before the ServiceCIDR and after its delete the same address is reachable.
 * To tell the drop apart from a packet that is merely unrouted, the client-side namespace
 * {@code ext} owns the unallocated addresses: without the drop, it answers with a TCP reset.
 */
class NftServiceCidrPacketIT {

    static final int TIMEOUT = 1200;
    static final String NODE = "node-a";
    static final Addr V4 = new Addr(IpFamily.IPV4);
    static final Addr V6 = new Addr(IpFamily.IPV6);
    static BackendNode node;
    static Topology topo;
    static Backend backend;

    @BeforeAll
    static void setUp() {
        node = BackendNode.open("nftables", "nft", "ip");
        topo = node.topo();
        backend = node.backend();
        topo.ns("ext").exec("ip", "addr", "add", V4.cip(99) + "/32", "dev", "eth0");
        topo.ns("ext").exec("ip", "addr", "add", V6.cip(99) + "/128", "dev", "eth0", "nodad");
    }

    @AfterAll
    static void tearDown() {
        if (node != null) {
            node.close();
        }
    }

    private FoldedState state = FoldedState.initial();
    private Plan applied;
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    /** Folds the events and syncs as the engine does: incremental render, partial transaction. */
    private void foldAndSync(ClusterEvent... events) throws KernelException {
        for (ClusterEvent e : events) {
            FoldStep step = state.apply(new Envelope(state.offset() + 1, now, "test", e));
            if (applied != null && !step.delta().isEmpty()) {
                Plan desired = backend.renderIncremental(applied, step.state().node(), step.delta());
                Transaction tx = backend.diff(Optional.of(applied), desired, SyncOptions.at(now = now.plusMillis(100)));
                assertThat(tx.isFull()).as("a partial sync after %s", e.type()).isFalse();
                backend.apply(tx);
                applied = tx.result();
            }
            state = step.state();
        }
    }

    @Test
    void anUnallocatedAddressOfAServiceCidrIsDropped() throws KernelException {
        foldAndSync(new ConfigRecorded(new NodeName(NODE), Json.obj("mode", Json.of("nftables"))),
                NodeFixture.node(NODE).internalIP(V4.node()).internalIP(V6.node()).observed(),
                ServiceFixture.service("ns1", "web").ipFamilies("IPv4", "IPv6").clusterIP(V4.cip(10)).clusterIP(V6.cip(10))
                        .port("http", 80, "TCP").observed(),
                EndpointSliceFixture.slice("ns1", "web-v4", "web").port("http", 8080, "TCP").endpoint(V4.pod(1)).node(NODE).observed(),
                EndpointSliceFixture.slice("ns1", "web-v6", "web").addressType("IPv6").port("http", 8080, "TCP").endpoint(V6.pod(1))
                        .node(NODE).observed(),
                new SourceSynced(ResourceKind.SERVICE, "1"), new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"),
                new SourceSynced(ResourceKind.NODE, "1"));
        assertThat(state.node().synced()).isTrue();
        assertThat(state.node().settings().serviceCIDRs()).as("none configured").isEmpty();
        Transaction first = backend.diff(Optional.empty(), backend.render(state.node()), SyncOptions.at(now));
        backend.apply(first);
        applied = first.result();
        for (Addr a : List.of(V4, V6)) {
            Flow.tcp("no ranges: the unallocated address is only routed (ext resets)", "pod2", a.cip(99), 80, REJECT).check(topo, a, TIMEOUT);
            tcp("the Service answers", "pod2", a.cip(10), 80, reaches(Flow.Masq.ANY, "pod1")).check(topo, a, TIMEOUT);
        }

        foldAndSync(ServiceCidrFixture.serviceCidr("kubernetes", "172.30.0.0/16", "fd00:30::/108").observed(),
                new SourceSynced(ResourceKind.SERVICE_CIDR, "2"));
        assertThat(state.node().settings().serviceCIDRs()).extracting(Object::toString).containsExactly("172.30.0.0/16", "fd00:30::/108");
        for (Addr a : List.of(V4, V6)) {
            tcp("ServiceCIDR: the unallocated address is dropped", "pod2", a.cip(99), 80, DROP).check(topo, a, TIMEOUT);
            tcp("ServiceCIDR: the node's own traffic too", "node", a.cip(99), 80, DROP).check(topo, a, TIMEOUT);
            tcp("ServiceCIDR: an undefined port of a live ClusterIP is rejected", "pod2", a.cip(10), 81, REJECT).check(topo, a, TIMEOUT);
            tcp("ServiceCIDR: the Service still answers", "pod2", a.cip(10), 80, reaches(Flow.Masq.ANY, "pod1")).check(topo, a, TIMEOUT);
        }

        foldAndSync(ServiceCidrFixture.serviceCidr("kubernetes").deleted());
        for (Addr a : List.of(V4, V6)) {
            tcp("ServiceCIDR deleted: routed again", "pod2", a.cip(99), 80, REJECT).check(topo, a, TIMEOUT);
        }
    }
}
