package io.kproxy.backend.ipvs;

import static io.kproxy.testkit.netns.Flow.reaches;
import static io.kproxy.testkit.netns.Flow.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.SettableClock;
import io.kproxy.testkit.netns.Addr;
import io.kproxy.testkit.netns.Flow;
import io.kproxy.testkit.netns.Topology;
import io.kproxy.testkit.uml.UmlScenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs inside User-Mode Linux ({@link IpvsNodeUmlIT}), booted without {@code ip_vs_mh}: what the
 * ipvs backend reads from the node's kernel. NodePorts answer on every local address of the node
 * namespace the backend reports (not only the Node object's IP; taken into the node state before
 * each render, as the engine records them), and follow an address added and removed between two
 * syncs; a real server, a set member and a {@code kube-ipvs0} address deleted behind the backend's
 * back are put back by the next forced full sync; the scheduler {@code mh}, which this kernel
 * cannot load, skips every virtual server without failing the sync and leaves no probe behind.
 * Prints {@code FLOW ok|FAIL} lines, then {@code SCENARIO PASS}.
 */
public final class IpvsNodeScenario {

    private static final Addr V4 = new Addr(IpFamily.IPV4);
    /** An address the test adds to the node's uplink, reached by {@code ext} through its default route. */
    private static final String EXTRA = "192.0.2.50";

    private IpvsNodeScenario() {
    }

    public static void main(String[] args) {
        UmlScenario.exit(IpvsNodeScenario::run);
    }

    static void run() throws Exception {
        try (Topology topo = Topology.create()) {
            NetNs node = topo.ns("node");
            Optional<String> ns = Optional.of(node.name());
            SettableClock clock = new SettableClock(IpvsPacketFlowScenario.START);
            IpvsBackend backend = new IpvsBackend(IpvsSettings.DEFAULT, true, NetlinkIpvsKernel.open(ns), Optional.empty(),
                    IpvsProvider.conntrack(ns), clock);
            NodeState state = observed(backend, IpvsStates.node().state(PacketWorld.services()));
            Plan applied = sync(backend, Optional.empty(), backend.render(state), SyncOptions.fullAt(clock.instant()));
            List<String> failures = new ArrayList<>();

            for (IpFamily f : IpFamily.values()) {
                Addr a = new Addr(f);
                Flow uplink = tcp("NodePort on the node's uplink address, not the Node object's", "ext", a.nodeUplink(), 30010,
                        reaches(Flow.Masq.YES, "pod1", "rpod"));
                IpvsPacketFlowScenario.check(failures, f + " " + uplink.name(), () -> uplink.check(topo, a, IpvsPacketFlowScenario.TIMEOUT));
            }

            node.exec("ip", "addr", "add", EXTRA + "/32", "dev", "ve-ext");
            NodeState extraState = observed(backend, state);
            Plan withExtra = backend.renderIncremental(applied, extraState, StateDelta.between(state, extraState));
            Transaction added = backend.diff(Optional.of(applied), withExtra, SyncOptions.at(clock.instant()));
            applied = sync(backend, Optional.of(applied), withExtra, SyncOptions.at(clock.instant()));
            Flow extra = tcp("NodePort on an address added since the last sync", "ext", EXTRA, 30010, reaches(Flow.Masq.YES, "pod1", "rpod"));
            IpvsPacketFlowScenario.check(failures, "IPV4 " + extra.name(), () -> {
                assertThat(added.text()).contains("ipvsadm -A -t " + EXTRA + ":30010 -s rr");
                extra.check(topo, V4, IpvsPacketFlowScenario.TIMEOUT);
            });
            node.exec("ip", "addr", "del", EXTRA + "/32", "dev", "ve-ext");
            NodeState withoutState = observed(backend, extraState);
            Plan without = backend.renderIncremental(applied, withoutState, StateDelta.between(extraState, withoutState));
            applied = sync(backend, Optional.of(applied), without, SyncOptions.at(clock.instant()));
            IpvsPacketFlowScenario.check(failures, "IPV4 NodePort virtual servers of a removed address go at the next sync",
                    () -> assertThat(node.exec("ipvsadm", "-Sn")).doesNotContain(EXTRA).contains("-A -t " + V4.nodeUplink() + ":30010"));

            Plan[] current = {applied};
            IpvsPacketFlowScenario.check(failures, "IPV4 a forced full sync repairs what someone else deleted", () -> {
                String before = node.exec("ipvsadm", "-Sn");
                node.exec("ipvsadm", "-d", "-t", V4.cip(10) + ":80", "-r", V4.pod(1) + ":8080");
                node.exec("ipset", "del", "KUBE-CLUSTER-IP", V4.cip(10) + ",tcp:80");
                node.exec("ip", "addr", "del", V4.cip(10) + "/32", "dev", "kube-ipvs0");
                assertThat(backend.rulesIntact()).as("the cheap probe does not see a real server, member or address").isTrue();
                current[0] = sync(backend, Optional.of(current[0]), backend.render(state), SyncOptions.fullAt(clock.instant()));
                assertThat(node.exec("ipvsadm", "-Sn")).isEqualTo(before);
                assertThat(node.exec("ipset", "list", "KUBE-CLUSTER-IP")).contains(V4.cip(10) + ",tcp:80");
                assertThat(node.exec("ip", "-4", "addr", "show", "dev", "kube-ipvs0")).contains(V4.cip(10) + "/32");
                tcp("pod to cluster IP", "pod2", V4.cip(10), 80, reaches(Flow.Masq.NO, "pod1", "rpod")).check(topo, V4,
                        IpvsPacketFlowScenario.TIMEOUT);
            });

            IpvsPacketFlowScenario.check(failures, "a scheduler the kernel lacks skips every virtual server, the sync succeeds", () -> {
                assertThat(node.exec("cat", "/proc/modules")).doesNotContain("ip_vs_mh ").contains("ip_vs_rr ");
                States.NodeSpec spec = IpvsStates.node();
                spec.ipvs = new DataplaneSettings.Ipvs("mh", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO);
                NodeState withMh = observed(backend, spec.state(PacketWorld.services()));
                Plan skipped = backend.renderIncremental(current[0], withMh, StateDelta.between(state, withMh));
                assertThat(skipped.rulesetText()).contains("# skipped: scheduler mh is not in the kernel (module ip_vs_mh not loadable); "
                        + "virtual servers not programmed: -t " + V4.cip(10) + ":80");
                current[0] = sync(backend, Optional.of(current[0]), skipped, SyncOptions.at(clock.instant()));
                assertThat(node.exec("ipvsadm", "-Sn")).as("no virtual server, and no scheduler probe left").doesNotContain("-A -t")
                        .doesNotContain("-A -u");
                Plan back = backend.renderIncremental(current[0], state, StateDelta.between(withMh, state));
                current[0] = sync(backend, Optional.of(current[0]), back, SyncOptions.at(clock.instant()));
                tcp("pod to cluster IP", "pod2", V4.cip(10), 80, reaches(Flow.Masq.NO, "pod1", "rpod")).check(topo, V4,
                        IpvsPacketFlowScenario.TIMEOUT);
            });
            assertThat(failures).as("failed rows").isEmpty();
            backend.cleanup();
            backend.close();
        }
    }

    /**
     * {@code state} with the local addresses the backend reads from the kernel now, as the engine
     * records them ({@code LocalAddressesObserved}) and the fold keeps them before a sync.
     */
    private static NodeState observed(IpvsBackend backend, NodeState state) throws KernelException {
        return IpvsStates.withLocalAddresses(state, backend.localAddresses().orElseThrow());
    }

    /** Diffs from {@code last} (from the kernel when empty), applies, returns the result. */
    private static Plan sync(IpvsBackend backend, Optional<Plan> last, Plan desired, SyncOptions options) throws Exception {
        Transaction tx = last.isEmpty() ? backend.diffFromKernel(desired, options) : backend.diff(last, desired, options);
        backend.apply(tx);
        return tx.result();
    }
}
