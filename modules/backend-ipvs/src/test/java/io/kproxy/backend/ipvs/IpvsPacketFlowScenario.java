package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static io.kproxy.testkit.netns.Flow.DROP;
import static io.kproxy.testkit.netns.Flow.REJECT;
import static io.kproxy.testkit.netns.Flow.reaches;
import static io.kproxy.testkit.netns.Flow.tcp;
import static io.kproxy.testkit.netns.Flow.udp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.SettableClock;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Flow;
import io.kproxy.testkit.netns.Topology;
import io.kproxy.testkit.uml.UmlScenario;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs inside User-Mode Linux ({@link IpvsPacketFlowUmlIT}): the Java ipvs backend programs the
 * node namespace of the packet-test {@link Topology} through {@link NetlinkIpvsKernel} (IPVS,
 * ipsets, {@code kube-ipvs0}, iptables-legacy), and real TCP and UDP connections probe the table
 * below in both families: the rows of the nftables and iptables packet-flow ITs, with ipvs mode's
 * own answers marked {@code [ipvs]}. Then, in IPv4, graceful termination of a removed endpoint
 * under a long-lived connection and a restart of the backend under traffic
 * ({@link IpvsLifecycleFlows}), and the cleanup. Prints one {@code FLOW ok|FAIL} line per row,
 * then {@code SCENARIO PASS} and exits 0, or the failures and exits 1.
 */
public final class IpvsPacketFlowScenario {

    static final int TIMEOUT = 1500;
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private IpvsPacketFlowScenario() {
    }

    public static void main(String[] args) {
        UmlScenario.exit(IpvsPacketFlowScenario::run);
    }

    /**
     * The packet world's services and the long-lived one of the graceful-termination flow (IPv4
     * only, port 90 of {@code cip(20)}), with those of its endpoints named ({@code pod1}, {@code rpod}).
     */
    static List<ServicePortState> services(List<String> holdEndpoints) {
        List<ServicePortState> out = new ArrayList<>(PacketWorld.services());
        Addr a = new Addr(IpFamily.IPV4);
        out.add(port("ns1", "long", "", a.cip(20), 90).with(p -> {
            holdEndpoints.forEach(e -> p.endpoints.add(ep(a.of(e), IpvsLifecycleFlows.HOLD_PORT, e.equals("pod1"))));
            return p;
        }).build());
        return out;
    }

    static List<Flow> flows(Addr a) {
        Flow.Masq no = Flow.Masq.NO;
        Flow.Masq yes = Flow.Masq.YES;
        return List.of(
                tcp("pod to cluster IP", "pod2", a.cip(10), 80, reaches(no, "pod1", "rpod")),
                tcp("external to cluster IP is masqueraded", "ext", a.cip(10), 80, reaches(yes, "pod1", "rpod")),
                tcp("external to NodePort on the primary IP", "ext", a.node(), 30010, reaches(yes, "pod1", "rpod")),
                tcp("external to external IP", "ext", a.ext(10), 80, reaches(yes, "pod1", "rpod")),
                tcp("node to cluster IP", "node", a.cip(10), 80, reaches(Flow.Masq.ANY, "pod1", "rpod")),
                tcp("unallocated service IP", "pod2", a.cip(99), 80, DROP),
                udp("UDP cluster IP", "pod2", a.cip(10), 53, reaches(no, "pod1")),
                udp("UDP NodePort", "ext", a.node(), 30053, reaches(yes, "pod1")),
                tcp("hairpin is masqueraded", "pod1", a.cip(11), 80, reaches(yes, "pod1")),
                tcp("other pod to the same service is not", "pod2", a.cip(11), 80, reaches(no, "pod1")),
                tcp("no endpoints: cluster IP", "pod2", a.cip(12), 80, REJECT),
                tcp("no endpoints: NodePort", "ext", a.node(), 30012, REJECT),
                tcp("no endpoints: external IP", "ext", a.ext(12), 80, REJECT),
                tcp("no endpoints: LB IP", "ext", a.lb(12), 80, REJECT),
                tcp("eTP Local: external to LB reaches local endpoints, source kept", "ext", a.lb(13), 80, reaches(no, "pod1")),
                tcp("eTP Local: external to NodePort likewise", "ext", a.node(), 30013, reaches(no, "pod1")),
                tcp("[ipvs] eTP Local: pod to LB gets the LB's virtual server, local endpoints", "pod2", a.lb(13), 80, reaches(no, "pod1")),
                // Upstream's syncEndpoint (pkg/proxy/ipvs/proxier.go, pull 97081): with no local
                // endpoint the virtual server takes the cluster's, so that local pods are served;
                // an external client's connection is forwarded too, unmasqueraded. In a cluster
                // the remote endpoint's reply bypasses this node and is lost; in the topology
                // every route runs through the node, so it is seen to reach the endpoint.
                tcp("[ipvs] eTP Local without local endpoint: external to LB forwarded to the cluster's endpoints", "ext", a.lb(14), 80,
                        reaches(no, "rpod")),
                tcp("[ipvs] eTP Local without local endpoint: external to NodePort likewise", "ext", a.node(), 30014, reaches(no, "rpod")),
                tcp("eTP Local without local endpoint: pod to LB still served", "pod2", a.lb(14), 80, reaches(no, "rpod")),
                tcp("iTP Local: pod reaches local endpoints only", "pod2", a.cip(15), 80, reaches(no, "pod1")),
                tcp("iTP Local: external to cluster IP still masqueraded", "ext", a.cip(15), 80, reaches(yes, "pod1")),
                // A virtual server with no real server: IPVS answers port unreachable (ip_vs_leave, ip_vs_core.c).
                tcp("[ipvs] iTP Local without local endpoint: rejected", "pod2", a.cip(16), 80, REJECT),
                tcp("source range: allowed client", "ext", a.lb(17), 80, reaches(yes, "pod1")),
                tcp("source range: other client dropped", "ext", a.lb(17), 80, DROP).boundTo(a.blocked()),
                tcp("source range: NodePort bypasses it", "ext", a.node(), 30017, reaches(yes, "pod1")).boundTo(a.blocked()),
                tcp("terminating remote endpoint: pod to cluster IP served", "pod2", a.cip(19), 80, reaches(no, "rpod")));
    }

    // The hold servers are resources only to be closed: they serve from their own threads.
    @SuppressWarnings("try")
    static void run() throws Exception {
        long t0 = System.nanoTime();
        try (Topology topo = Topology.create();
                HoldServer h1 = HoldServer.start(topo.executor("pod1"), "pod1", IpvsLifecycleFlows.HOLD_PORT);
                HoldServer h2 = HoldServer.start(topo.executor("rpod"), "rpod", IpvsLifecycleFlows.HOLD_PORT)) {
            Optional<String> node = Optional.of(topo.ns("node").name());
            SettableClock clock = new SettableClock(START);
            NodeState state = IpvsStates.node().state(services(List.of("pod1", "rpod")));
            IpvsBackend backend = new IpvsBackend(IpvsSettings.DEFAULT, true, NetlinkIpvsKernel.open(node), Optional.empty(),
                    IpvsProvider.conntrack(node), clock);
            Plan plan = backend.render(state);
            // The agent's first sync: nothing trusted, the kernel read and taken over (empty here).
            backend.apply(backend.diffFromKernel(plan, SyncOptions.fullAt(clock.instant())));
            System.out.println("programmed in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            System.out.println(topo.ns("node").exec("ipvsadm", "-Ln"));
            Transaction again = backend.diff(Optional.of(plan), backend.render(state), SyncOptions.at(clock.instant()));
            assertThat(again.isEmpty()).as("a no-op sync is empty: " + again.text()).isTrue();
            Transaction reread = backend.diffFromKernel(backend.render(state), SyncOptions.at(clock.instant()));
            assertThat(reread.text()).as("the kernel reads back as programmed: no IPVS, set or address change")
                    .doesNotContain("ipvsadm -").doesNotContain("ipset add").doesNotContain("ipset del").doesNotContain("ip address");
            assertThat(backend.rulesIntact()).isTrue();

            List<String> failures = new ArrayList<>();
            for (IpFamily f : IpFamily.values()) {
                Addr a = new Addr(f);
                for (Flow flow : flows(a)) {
                    check(failures, f + " " + flow.name(), () -> flow.check(topo, a, TIMEOUT));
                }
                check(failures, f + " session affinity: one client keeps its backend", () -> {
                    var probe = topo.probe("pod3", TIMEOUT);
                    String first = probe.tcp(null, a.cip(18), 80).server();
                    assertThat(first).isIn("pod1", "pod2", "rpod");
                    for (int i = 0; i < 8; i++) {
                        assertThat(probe.tcp(null, a.cip(18), 80).server()).as("try %d", i).isEqualTo(first);
                    }
                });
            }
            IpvsLifecycleFlows life = new IpvsLifecycleFlows(topo, clock);
            state = life.gracefulTermination(backend, plan, state);
            Backend fresh = life.restartUnderTraffic(backend, state);

            // Someone else's objects, which ipvs mode's cleanup must leave alone.
            NetNs n = topo.ns("node");
            n.exec("ipvsadm", "-A", "-f", "7", "-s", "rr");
            n.exec("ipset", "create", "someone-else", "hash:ip");
            n.exec("iptables-legacy", "-t", "filter", "-N", "SOMEONE-ELSE");
            fresh.cleanup();
            fresh.close();
            assertThat(n.exec("ipvsadm", "-Sn")).as("cleanup deletes every virtual server of kproxy's").doesNotContain("-A -t")
                    .doesNotContain("-A -u").contains("-A -f 7");
            assertThat(n.tryExecWithInput(null, "ip", "link", "show", "kube-ipvs0").exitCode()).isNotZero();
            assertThat(n.exec("ipset", "list", "-n")).doesNotContain("KUBE-").contains("someone-else");
            assertThat(n.exec("iptables-legacy-save")).doesNotContain("KUBE-").contains(":SOMEONE-ELSE");
            System.out.println("FLOW ok   cleanup: ipvs mode's objects gone, someone else's kept");
            System.out.println("flows took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            assertThat(failures).as("failed rows").isEmpty();
        }
    }

    interface Check {
        void run() throws Exception;
    }

    /** Runs one row, printing its verdict; a failure is collected so that every row is reported. */
    static void check(List<String> failures, String name, Check c) {
        try {
            c.run();
            System.out.println("FLOW ok   " + name);
        } catch (Exception | AssertionError e) {
            System.out.println("FLOW FAIL " + name + ": " + e.getMessage());
            failures.add(name);
        }
    }
}
