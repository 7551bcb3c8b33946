package io.kproxy.backend.nftables;

import static io.kproxy.testkit.netns.Flow.DROP;
import static io.kproxy.testkit.netns.Flow.REJECT;
import static io.kproxy.testkit.netns.Flow.reaches;
import static io.kproxy.testkit.netns.Flow.tcp;
import static io.kproxy.testkit.netns.Flow.udp;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.BackendNode;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Flow;
import io.kproxy.testkit.netns.Topology;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real packets through the rules the backend programs into a test node namespace: each row
 * of a table says from where, to what, over which protocol, and which backends answer
 * (masqueraded or not) or whether the packet is rejected or dropped. Covers ClusterIP,
 * NodePort on the primary IP only, externalIPs, LoadBalancer IPs with source ranges, both
 * traffic policies Local (pod short-circuit, node masquerade, DROP without local endpoints),
 * REJECT without endpoints, undefined ports and unallocated service IPs, session affinity,
 * hairpin, UDP, and the rows of docs/upstream-behaviour.md §6; then the masqueradeAll and
 * detect-local variants. IPv4 and IPv6. One topology for the class.
 */
class NftPacketFlowIT {

    // Above one TCP SYN retransmission (1 s): the first ICMPv6 error towards a neighbour the
    // node has not resolved yet can be late, and a late REJECT must not pass for a DROP.
    static final int TIMEOUT = 1200;
    static BackendNode node;
    static Topology topo;
    static Backend backend;

    @BeforeAll
    static void setUp() {
        node = BackendNode.open("nftables", "nft", "ip");
        topo = node.topo();
        backend = node.backend();
    }

    @AfterAll
    static void tearDown() {
        if (node != null) {
            node.close();
        }
    }

    static void program(NodeState state) throws KernelException {
        backend.apply(backend.diff(Optional.empty(), backend.render(state), SyncOptions.at(Instant.now())));
    }

    /** The engine's partial sync: render incrementally, diff against what was applied, apply. */
    static Plan sync(Plan applied, NodeState state, ServicePortName changed, Instant now) throws KernelException {
        Plan desired = backend.renderIncremental(applied, state, new StateDelta(Set.of(changed), Set.of(), false, false));
        Transaction tx = backend.diff(Optional.of(applied), desired, SyncOptions.at(now));
        assertThat(tx.isFull()).isFalse();
        backend.apply(tx);
        return tx.result();
    }

    static List<Flow> defaultFlows(Addr a) {
        Flow.Masq no = Flow.Masq.NO;
        Flow.Masq yes = Flow.Masq.YES;
        return List.of(
                tcp("pod to cluster IP", "pod2", a.cip(10), 80, reaches(no, "pod1", "rpod")),
                tcp("external to cluster IP is masqueraded", "ext", a.cip(10), 80, reaches(yes, "pod1", "rpod")),
                tcp("external to NodePort on the primary IP", "ext", a.node(), 30010, reaches(yes, "pod1", "rpod")),
                tcp("external to external IP", "ext", a.ext(10), 80, reaches(yes, "pod1", "rpod")),
                tcp("node to cluster IP", "node", a.cip(10), 80, reaches(Flow.Masq.ANY, "pod1", "rpod")),
                tcp("undefined port of a live cluster IP", "pod2", a.cip(10), 81, REJECT),
                udp("protocol not defined on the port", "pod2", a.cip(10), 80, REJECT),
                tcp("unallocated service IP", "pod2", a.cip(99), 80, DROP),
                udp("UDP cluster IP", "pod2", a.cip(10), 53, reaches(no, "pod1")),
                udp("UDP NodePort", "ext", a.node(), 30053, reaches(yes, "pod1")),
                tcp("NodePort only on nodePortAddresses (primary)", "ext", a.nodeUplink(), 30010, REJECT),
                tcp("no localhost NodePorts", "node", a.loopback(), 30010, REJECT),
                tcp("hairpin is masqueraded", "pod1", a.cip(11), 80, reaches(yes, "pod1")),
                tcp("other pod to the same service is not", "pod2", a.cip(11), 80, reaches(no, "pod1")),
                tcp("no endpoints: cluster IP", "pod2", a.cip(12), 80, REJECT),
                tcp("no endpoints: NodePort", "ext", a.node(), 30012, REJECT),
                tcp("no endpoints: external IP", "ext", a.ext(12), 80, REJECT),
                tcp("no endpoints: LB IP", "ext", a.lb(12), 80, REJECT),
                tcp("eTP Local: external to LB reaches local endpoints, source kept", "ext", a.lb(13), 80, reaches(no, "pod1")),
                tcp("eTP Local: external to NodePort likewise", "ext", a.node(), 30013, reaches(no, "pod1")),
                tcp("eTP Local: pod to LB short-circuits to all endpoints", "pod2", a.lb(13), 80, reaches(no, "pod1", "rpod")),
                tcp("eTP Local: node to LB is masqueraded to all endpoints", "node", a.lb(13), 80, reaches(yes, "pod1", "rpod")),
                tcp("eTP Local without local endpoint: external to LB dropped", "ext", a.lb(14), 80, DROP),
                tcp("eTP Local without local endpoint: external to NodePort dropped", "ext", a.node(), 30014, DROP),
                tcp("eTP Local without local endpoint: pod to LB still served", "pod2", a.lb(14), 80, reaches(no, "rpod")),
                tcp("iTP Local: pod reaches local endpoints only", "pod2", a.cip(15), 80, reaches(no, "pod1")),
                tcp("iTP Local: external to cluster IP still masqueraded", "ext", a.cip(15), 80, reaches(yes, "pod1")),
                tcp("iTP Local without local endpoint: dropped", "pod2", a.cip(16), 80, DROP),
                tcp("source range: allowed client", "ext", a.lb(17), 80, reaches(yes, "pod1")),
                tcp("source range: other client dropped", "ext", a.lb(17), 80, DROP).boundTo(a.blocked()),
                tcp("source range: NodePort bypasses it", "ext", a.node(), 30017, reaches(yes, "pod1")).boundTo(a.blocked()),
                tcp("terminating remote endpoint: eTP Local external dropped, not rejected", "ext", a.lb(19), 80, DROP),
                tcp("terminating remote endpoint: pod to cluster IP served", "pod2", a.cip(19), 80, reaches(no, "rpod")));
    }

    @ParameterizedTest
    @EnumSource(IpFamily.class)
    void defaultSettings(IpFamily family) throws KernelException {
        program(NftStates.state(PacketWorld.services()));
        Addr a = new Addr(family);
        defaultFlows(a).forEach(f -> f.check(topo, a, TIMEOUT));
        // Session affinity: one client keeps its backend.
        var probe = topo.probe("pod3", TIMEOUT);
        String first = probe.tcp(null, a.cip(18), 80).server();
        assertThat(first).isIn("pod1", "pod2", "rpod");
        for (int i = 0; i < 8; i++) {
            assertThat(probe.tcp(null, a.cip(18), 80).server()).as("%s affinity try %d", family, i).isEqualTo(first);
        }
    }

    /**
     * Partial syncs (over netlink, as the provider applies them) keep the packet semantics: an
     * endpoint replaced, one added, one removed (only data-map and hairpin elements change), a
     * service added and deleted.
     */
    @ParameterizedTest
    @EnumSource(IpFamily.class)
    void partialSyncsKeepPacketSemantics(IpFamily family) throws KernelException {
        Addr a = new Addr(family);
        List<ServicePortState> ports = new ArrayList<>(PacketWorld.services());
        Instant now = Instant.now();
        Transaction first = backend.diff(Optional.empty(), backend.render(NftStates.state(ports)), SyncOptions.at(now));
        backend.apply(first);
        Plan applied = first.result();
        Flow.Masq no = Flow.Masq.NO;
        Flow.Masq yes = Flow.Masq.YES;

        ServicePortState hairpin = hairpin(a, a.pod(2));
        applied = sync(applied, replace(ports, hairpin), hairpin.name(), now = now.plusMillis(100));
        Stream.of(tcp("endpoint replaced: the new one answers", "pod3", a.cip(11), 80, reaches(no, "pod2")),
                tcp("endpoint replaced: its hairpin is masqueraded", "pod2", a.cip(11), 80, reaches(yes, "pod2")),
                tcp("endpoint replaced: the old one is no longer hairpin", "pod1", a.cip(11), 80, reaches(no, "pod2")))
                .forEach(f -> f.check(topo, a, TIMEOUT));

        hairpin = hairpin(a, a.pod(1), a.pod(2));
        applied = sync(applied, replace(ports, hairpin), hairpin.name(), now = now.plusMillis(100));
        Stream.of(tcp("endpoint added: both answer", "pod3", a.cip(11), 80, reaches(no, "pod1", "pod2")),
                tcp("endpoint added: its hairpin is masqueraded", "pod1", a.cip(11), 80, reaches(Flow.Masq.ANY, "pod1", "pod2")))
                .forEach(f -> f.check(topo, a, TIMEOUT));

        hairpin = hairpin(a, a.pod(1));
        applied = sync(applied, replace(ports, hairpin), hairpin.name(), now = now.plusMillis(100));
        Stream.of(tcp("endpoint removed: the other one only", "pod3", a.cip(11), 80, reaches(no, "pod1")),
                tcp("endpoint removed: hairpin of the remaining one", "pod1", a.cip(11), 80, reaches(yes, "pod1")))
                .forEach(f -> f.check(topo, a, TIMEOUT));

        ServicePortState added = port("ns1", "added", "", a.cip(20), 80).with(p -> {
            p.endpoints.add(States.ep(a.rpod(), 8080, false));
            return p;
        }).build();
        ports.add(added);
        applied = sync(applied, NftStates.state(ports), added.name(), now = now.plusMillis(100));
        tcp("service added", "pod2", a.cip(20), 80, reaches(no, "rpod")).check(topo, a, TIMEOUT);

        ports.remove(added);
        applied = sync(applied, NftStates.state(ports), added.name(), now = now.plusMillis(100));
        tcp("service deleted: an unallocated service IP again", "pod2", a.cip(20), 80, DROP).check(topo, a, TIMEOUT);
        // Its chains go a second later; the kernel takes that sync too.
        backend.apply(backend.diff(Optional.of(applied), applied, SyncOptions.at(now.plusSeconds(2))));
    }

    private static ServicePortState hairpin(Addr a, String... endpoints) {
        return port("ns1", "hairpin", "", a.cip(11), 80).with(p -> {
            for (String e : endpoints) {
                p.endpoints.add(States.ep(e, 8080, true));
            }
            return p;
        }).build();
    }

    private static NodeState replace(List<ServicePortState> ports, ServicePortState s) {
        ports.replaceAll(p -> p.name().equals(s.name()) ? s : p);
        return NftStates.state(ports);
    }

    @ParameterizedTest
    @EnumSource(IpFamily.class)
    void masqueradeAllAndMatchAllNodePorts(IpFamily family) throws KernelException {
        States.NodeSpec node = NftStates.node();
        node.masqueradeAll = true;
        node.v4NodePorts = new NodePortAddresses.MatchAll();
        node.v6NodePorts = new NodePortAddresses.MatchAll();
        program(node.state(PacketWorld.services()));
        Addr a = new Addr(family);
        Stream.of(tcp("masqueradeAll: pod to cluster IP masqueraded", "pod2", a.cip(11), 80, reaches(Flow.Masq.YES, "pod1")),
                tcp("NodePort on every local address", "ext", a.nodeUplink(), 30010, reaches(Flow.Masq.YES, "pod1", "rpod")),
                tcp("but never on loopback", "node", a.loopback(), 30010, REJECT))
                .forEach(f -> f.check(topo, a, TIMEOUT));
    }

    @ParameterizedTest
    @EnumSource(IpFamily.class)
    void withoutLocalDetector(IpFamily family) throws KernelException {
        States.NodeSpec node = NftStates.node();
        node.v4Detector = new LocalDetector.None();
        node.v6Detector = new LocalDetector.None();
        program(node.state(PacketWorld.services()));
        Addr a = new Addr(family);
        Stream.of(tcp("no detector: pod to eTP Local LB gets local endpoints only", "pod2", a.lb(13), 80, reaches(Flow.Masq.NO, "pod1")),
                tcp("no detector: cluster IP never masqueraded", "ext", a.cip(11), 80, reaches(Flow.Masq.NO, "pod1")))
                .forEach(f -> f.check(topo, a, TIMEOUT));
    }

    @ParameterizedTest
    @EnumSource(IpFamily.class)
    void bridgeInterfaceDetector(IpFamily family) throws KernelException {
        States.NodeSpec node = NftStates.node();
        node.v4Detector = new LocalDetector.BridgeInterface("kbr0");
        node.v6Detector = new LocalDetector.BridgeInterface("kbr0");
        program(node.state(PacketWorld.services()));
        Addr a = new Addr(family);
        Stream.of(tcp("bridge detector: pod traffic not masqueraded", "pod2", a.cip(11), 80, reaches(Flow.Masq.NO, "pod1")),
                tcp("bridge detector: external traffic masqueraded", "ext", a.cip(11), 80, reaches(Flow.Masq.YES, "pod1")),
                tcp("bridge detector: pod short-circuit to eTP Local LB", "pod2", a.lb(13), 80, reaches(Flow.Masq.NO, "pod1", "rpod")))
                .forEach(f -> f.check(topo, a, TIMEOUT));
    }
}
