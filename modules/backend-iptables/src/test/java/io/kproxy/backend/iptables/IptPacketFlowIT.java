package io.kproxy.backend.iptables;

import static io.kproxy.testkit.netns.Flow.DROP;
import static io.kproxy.testkit.netns.Flow.REJECT;
import static io.kproxy.testkit.netns.Flow.reaches;
import static io.kproxy.testkit.netns.Flow.tcp;
import static io.kproxy.testkit.netns.Flow.udp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.EchoServer;
import io.kproxy.testkit.netns.Flow;
import io.kproxy.testkit.netns.Topology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real packets through the rules the iptables backend programs into a test node namespace: the
 * table of the nftables backend's {@code NftPacketFlowIT}, row for row, with iptables' intended
 * differences marked {@code [iptables]}:
 * <ul>
 *   <li>NodePorts answer on every local address by default (nodePortAddresses matches all), and
 *       on 127.0.0.1 (route_localnet, IPv4 only);</li>
 *   <li>an undefined port or protocol of a live cluster IP, and an unallocated service IP, get
 *       no rule: the packet is routed on unchanged (here towards the client side, where it is
 *       lost, so the probe sees a DROP; nftables rejects the first and drops the last);</li>
 *   <li>the health-check node port is ACCEPTed in INPUT, and {@code KUBE-FORWARD} accepts
 *       masqueraded forwarded flows, both visible once the chains' policies are DROP.</li>
 * </ul>
 * Then the masqueradeAll, detector and iptables-legacy variants, and the repair path: a firewall
 * reload removes our rules and the canary, and the next (full) sync restores them.
 *
 * <p>Every table but the repair path runs twice ({@link Load}): programmed by the backend's
 * apply, and loaded from what {@code kproxy render --mode iptables --family ipv4|ipv6} prints
 * ({@code Plan.loadableText}, rendered offline as the command does) with a plain
 * {@code iptables-restore} / {@code ip6tables-restore} into the emptied node namespace.
 */
class IptPacketFlowIT {

    static final int TIMEOUT = 1200;
    static Topology topo;
    static IptablesBackend backend;
    /** How and with which variant the node namespace was last programmed ("" when empty). */
    static String programmed = "";

    /** How a table's ruleset gets into the node namespace. */
    enum Load {
        /** The backend's render, diff and apply, as the agent does. */
        APPLY,
        /** {@code iptables-restore} of the render command's per-family text, nothing else. */
        RENDER
    }

    static Stream<Arguments> loadsAndFamilies() {
        return Stream.of(Load.values()).flatMap(l -> Stream.of(IpFamily.values()).map(f -> Arguments.of(l, f)));
    }

    @BeforeAll
    static void setUp() {
        KernelTests.require("ip", "iptables-nft-restore", "iptables-legacy-restore", "ip6tables-nft-restore", "ip6tables-legacy-restore", "nft",
                "conntrack", "sysctl");
        topo = Topology.create();
    }

    @AfterAll
    static void tearDown() {
        if (backend != null) {
            backend.close();
        }
        if (topo != null) {
            topo.close();
        }
    }

    static void program(Variant v, NodeState state) throws KernelException {
        program(Load.APPLY, v, state);
    }

    static void program(Load load, Variant v, NodeState state) throws KernelException {
        if (load == Load.RENDER || !programmed.equals(load + " " + v)) {
            if (backend != null) {
                backend.close();
                backend = null;
            }
            empty(topo.ns("node"));
        }
        programmed = load + " " + v;
        if (load == Load.RENDER) {
            loadRendered(topo.ns("node"), v, state);
            return;
        }
        if (backend == null) {
            backend = IptablesProvider.create(new Proc(Optional.of(topo.ns("node").name()), Duration.ofMinutes(1)), v, "test");
        }
        backend.apply(backend.diff(Optional.empty(), backend.render(state), SyncOptions.at(Instant.now())));
    }

    /** No rule, no chain of either variant, route_localnet off: what a fresh namespace has. */
    static void empty(NetNs node) {
        // iptables-nft's tables are nftables tables.
        node.exec("nft", "flush", "ruleset");
        for (Fam f : List.of(Fam.V4, Fam.V6)) {
            // A restore without --noflush flushes every chain of the tables it names and deletes the user-defined ones.
            node.execWithInput("*filter\nCOMMIT\n*nat\nCOMMIT\n*mangle\nCOMMIT\n", Variant.LEGACY.tool(f, "restore"));
            for (Variant v : Variant.values()) {
                assertThat(node.exec(v.tool(f, "save")).lines().filter(l -> l.startsWith("-A ") || l.startsWith(":KUBE-")))
                        .as("%s %s emptied", v, f.family()).isEmpty();
            }
        }
        node.exec("sysctl", "-q", "-w", "net.ipv4.conf.all.route_localnet=0");
    }

    /**
     * What an operator does with {@code kproxy render --mode iptables --family F}: the text of an
     * offline backend (an in-memory kernel port, as the command), fed to a plain restore of the
     * family's tool, and the sysctl its comment line names.
     */
    static void loadRendered(NetNs node, Variant v, NodeState state) {
        MemoryKernelPort nowhere = new MemoryKernelPort();
        try (var offline = new IptablesProvider().create(nowhere, nowhere)) {
            var plan = offline.render(state);
            for (Fam f : List.of(Fam.V4, Fam.V6)) {
                String text = plan.loadableText(f.family());
                node.execWithInput(text, v.tool(f, "restore"));
                text.lines().filter(l -> l.startsWith("# needs: sysctl ")).forEach(l -> {
                    String[] cmd = l.substring("# needs: ".length()).split(" \\(", 2)[0].split(" ");
                    node.exec(cmd);
                });
            }
        }
    }

    static List<Flow> defaultFlows(Addr a) {
        Flow.Masq no = Flow.Masq.NO;
        Flow.Masq yes = Flow.Masq.YES;
        List<Flow> flows = new ArrayList<>(List.of(
                tcp("pod to cluster IP", "pod2", a.cip(10), 80, reaches(no, "pod1", "rpod")),
                tcp("external to cluster IP is masqueraded", "ext", a.cip(10), 80, reaches(yes, "pod1", "rpod")),
                tcp("external to NodePort on the primary IP", "ext", a.node(), 30010, reaches(yes, "pod1", "rpod")),
                tcp("external to external IP", "ext", a.ext(10), 80, reaches(yes, "pod1", "rpod")),
                tcp("node to cluster IP", "node", a.cip(10), 80, reaches(Flow.Masq.ANY, "pod1", "rpod")),
                tcp("[iptables] undefined port of a live cluster IP: no rule, routed on and lost", "pod2", a.cip(10), 81, DROP),
                udp("[iptables] protocol not defined on the port: no rule, routed on and lost", "pod2", a.cip(10), 80, DROP),
                tcp("unallocated service IP", "pod2", a.cip(99), 80, DROP),
                udp("UDP cluster IP", "pod2", a.cip(10), 53, reaches(no, "pod1")),
                udp("UDP NodePort", "ext", a.node(), 30053, reaches(yes, "pod1")),
                tcp("[iptables] NodePort on every local address", "ext", a.nodeUplink(), 30010, reaches(yes, "pod1", "rpod")),
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
                tcp("terminating remote endpoint: pod to cluster IP served", "pod2", a.cip(19), 80, reaches(no, "rpod"))));
        if (a.v6()) {
            flows.add(tcp("[iptables] no localhost NodePorts on IPv6", "node", a.loopback(), 30010, REJECT));
        } else {
            flows.add(tcp("[iptables] localhost NodePort (route_localnet), masqueraded", "node", a.loopback(), 30010,
                    reaches(yes, "pod1", "rpod")));
        }
        return flows;
    }

    @ParameterizedTest
    @MethodSource("loadsAndFamilies")
    void defaultSettings(Load load, IpFamily family) throws KernelException {
        program(load, Variant.NFT, IptStates.state(PacketWorld.services()));
        Addr a = new Addr(family);
        defaultFlows(a).forEach(f -> f.check(topo, a, TIMEOUT));
        // Session affinity (the recent match): one client keeps its backend.
        var probe = topo.probe("pod3", TIMEOUT);
        String first = probe.tcp(null, a.cip(18), 80).server();
        assertThat(first).isIn("pod1", "pod2", "rpod");
        for (int i = 0; i < 8; i++) {
            assertThat(probe.tcp(null, a.cip(18), 80).server()).as("%s affinity try %d", family, i).isEqualTo(first);
        }
    }

    @ParameterizedTest
    @EnumSource(Load.class)
    void iptablesLegacyServesTheSameTable(Load load) throws KernelException {
        program(load, Variant.LEGACY, IptStates.state(PacketWorld.services()));
        Addr a = new Addr(IpFamily.IPV4);
        defaultFlows(a).forEach(f -> f.check(topo, a, TIMEOUT));
    }

    @ParameterizedTest
    @MethodSource("loadsAndFamilies")
    void masqueradeAllPrimaryNodePortsNoLocalhost(Load load, IpFamily family) throws KernelException {
        States.NodeSpec node = IptStates.node();
        node.masqueradeAll = true;
        node.localhostNodePorts = false;
        node.v4NodePorts = new NodePortAddresses.Cidrs(List.of(States.cidr("192.168.0.2/32")));
        node.v6NodePorts = new NodePortAddresses.Cidrs(List.of(States.cidr("fd00:192::2/128")));
        program(load, Variant.NFT, node.state(PacketWorld.services()));
        Addr a = new Addr(family);
        Stream.of(tcp("masqueradeAll: pod to cluster IP masqueraded", "pod2", a.cip(11), 80, reaches(Flow.Masq.YES, "pod1")),
                tcp("NodePort on the primary IP", "ext", a.node(), 30010, reaches(Flow.Masq.YES, "pod1", "rpod")),
                tcp("NodePort not on other addresses", "ext", a.nodeUplink(), 30010, REJECT),
                tcp("no localhost NodePorts when switched off", "node", a.loopback(), 30010, REJECT))
                .forEach(f -> f.check(topo, a, TIMEOUT));
    }

    @ParameterizedTest
    @MethodSource("loadsAndFamilies")
    void detectors(Load load, IpFamily family) throws KernelException {
        Addr a = new Addr(family);
        States.NodeSpec none = IptStates.node();
        none.v4Detector = new LocalDetector.None();
        none.v6Detector = new LocalDetector.None();
        program(load, Variant.NFT, none.state(PacketWorld.services()));
        Stream.of(tcp("no detector: pod to eTP Local LB gets local endpoints only", "pod2", a.lb(13), 80, reaches(Flow.Masq.NO, "pod1")),
                tcp("no detector: cluster IP never masqueraded", "ext", a.cip(11), 80, reaches(Flow.Masq.NO, "pod1")))
                .forEach(f -> f.check(topo, a, TIMEOUT));
        States.NodeSpec bridge = IptStates.node();
        bridge.v4Detector = new LocalDetector.BridgeInterface("kbr0");
        bridge.v6Detector = new LocalDetector.BridgeInterface("kbr0");
        program(load, Variant.NFT, bridge.state(PacketWorld.services()));
        Stream.of(tcp("bridge detector: pod traffic not masqueraded", "pod2", a.cip(11), 80, reaches(Flow.Masq.NO, "pod1")),
                tcp("bridge detector: external traffic masqueraded", "ext", a.cip(11), 80, reaches(Flow.Masq.YES, "pod1")),
                tcp("bridge detector: pod short-circuit to eTP Local LB", "pod2", a.lb(13), 80, reaches(Flow.Masq.NO, "pod1", "rpod")))
                .forEach(f -> f.check(topo, a, TIMEOUT));
    }

    @ParameterizedTest
    @EnumSource(Load.class)
    void healthCheckNodePortAndForwardAcceptWithDropPolicies(Load load) throws KernelException {
        program(load, Variant.NFT, IptStates.state(PacketWorld.services()));
        Addr a = new Addr(IpFamily.IPV4);
        String tool = Variant.NFT.tool(Fam.V4, "");
        try (EchoServer hc = EchoServer.start(topo.executor("node"), "node", 32013, 32014)) {
            assertThat(hc.name()).isEqualTo("node");
            topo.ns("node").exec(tool, "-P", "INPUT", "DROP");
            topo.ns("node").exec(tool, "-P", "FORWARD", "DROP");
            try {
                Stream.of(tcp("[iptables] health-check node port ACCEPTed by KUBE-NODEPORTS", "ext", a.node(), 32013, reaches(Flow.Masq.NO, "node")),
                        tcp("another port of the node: INPUT policy DROP", "ext", a.node(), 32014, DROP),
                        tcp("[iptables] KUBE-FORWARD accepts the masqueraded flow", "ext", a.node(), 30010, reaches(Flow.Masq.YES, "pod1", "rpod")),
                        tcp("an unmarked forwarded flow meets FORWARD policy DROP", "pod2", a.cip(11), 80, DROP))
                        .forEach(f -> f.check(topo, a, TIMEOUT));
            } finally {
                topo.ns("node").exec(tool, "-P", "INPUT", "ACCEPT");
                topo.ns("node").exec(tool, "-P", "FORWARD", "ACCEPT");
            }
        }
    }

    @Test
    void aFirewallReloadIsNoticedByTheCanaryAndRepairedByTheNextSync() throws KernelException {
        program(Variant.NFT, IptStates.state(PacketWorld.services()));
        Addr a = new Addr(IpFamily.IPV4);
        Flow served = tcp("pod to cluster IP", "pod2", a.cip(10), 80, reaches(Flow.Masq.NO, "pod1", "rpod"));
        served.check(topo, a, TIMEOUT);
        assertThat(backend.rulesIntact()).isTrue();
        // What a firewall reload does: a flushing restore of every table, our chains and canaries gone.
        topo.ns("node").execWithInput("*filter\nCOMMIT\n*nat\nCOMMIT\n*mangle\nCOMMIT\n", Variant.NFT.tool(Fam.V4, "restore"));
        tcp("after the reload: no DNAT, the packet is routed on and lost", "pod2", a.cip(10), 80, DROP).check(topo, a, TIMEOUT);
        assertThat(backend.rulesIntact()).isFalse();
        // The engine's answer to a missing canary: a full sync with no last applied plan.
        backend.apply(backend.diff(Optional.empty(), backend.render(IptStates.state(PacketWorld.services())), SyncOptions.at(Instant.now())));
        assertThat(backend.rulesIntact()).isTrue();
        served.check(topo, a, TIMEOUT);
    }
}
