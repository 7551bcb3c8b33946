package io.kproxy.backend.ipvs;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.Skipped;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Bad input is skipped whole and reported, never half-applied, and the rest of the node is
 * programmed: a cluster IP that is a node address, more real servers than one virtual server
 * takes, two Services claiming one virtual server, a scheduler the kernel lacks; an unknown
 * scheduler is refused before any plan exists.
 */
class BadInputTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

    private static IpvsPlan render(List<States.PortSpec> specs) {
        return new PlanRenderer(true).render(IpvsStates.state(specs));
    }

    private static String applied(List<States.PortSpec> specs) throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        IpvsBackend b = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(T0));
        Transaction tx = b.diff(Optional.empty(), b.render(IpvsStates.state(specs)), SyncOptions.at(T0));
        b.apply(tx);
        return kernel.dump();
    }

    /** What a sync with no last plan reports as skipped. */
    private static List<Skipped> skips(List<States.PortSpec> specs) {
        IpvsBackend b = IpvsProvider.create(IpvsSettings.DEFAULT, new MemoryIpvsKernel(), new MemoryKernelPort(), new SettableClock(T0));
        return b.diff(Optional.empty(), b.render(IpvsStates.state(specs)), SyncOptions.at(T0)).skipped();
    }

    @Test
    void aClusterIpThatIsANodeAddressIsSkippedWhole() throws Exception {
        States.PortSpec bad = port("ns", "bad", "p", "192.168.0.2", 80).with(p -> {
            p.nodePort = 30111;
            p.endpoints.add(ep("10.180.0.1", 80, true));
            return p;
        });
        IpvsPlan plan = render(List.of(bad, IpvsStates.web()));
        assertThat(plan.rulesetText()).contains("# ns/bad:p tcp\n# skipped: cluster IP 192.168.0.2 is an address of this node");
        assertThat(skips(List.of(bad, IpvsStates.web()))).as("reported in the sync's result, for the engine's log and metric")
                .extracting(Skipped::cause, Skipped::object).containsExactly(tuple(Skipped.Cause.ADDRESS_COLLISION, "ns/bad:p/TCP IPV4"));
        String kernel = applied(List.of(bad, IpvsStates.web()));
        assertThat(kernel).doesNotContain("30111").doesNotContain("10.180.0.1,tcp:80,").contains("172.30.0.41");
        assertThat(kernel).doesNotContain("link kube-ipvs0 [172.30.0.41, 192.168.0.2]");
    }

    @Test
    void moreRealServersThanAVirtualServerTakesIsSkipped() throws Exception {
        States.PortSpec huge = port("ns", "huge", "p", "172.30.0.60", 80).with(p -> {
            for (int i = 0; i <= PartRenderer.MAX_REAL_SERVERS; i++) {
                p.endpoints.add(ep("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255), 80, false));
            }
            return p;
        });
        IpvsPlan plan = render(List.of(huge, IpvsStates.web()));
        PortPart part = plan.v4().parts().values().stream().filter(p -> p.name().service().name().equals("huge")).findFirst().orElseThrow();
        assertThat(part.skipped()).contains(new Skipped(Skipped.Cause.TOO_MANY_REAL_SERVERS, "ns/huge:p/TCP IPV4",
                "65536 real servers exceed 65535 per virtual server"));
        assertThat(part.services()).isEmpty();
        assertThat(part.entries()).isEmpty();
        assertThat(plan.v4().image().serviceCount()).isEqualTo(1);
    }

    @Test
    void twoServicesClaimingOneVirtualServerLeaveItToTheFirst() throws Exception {
        States.PortSpec a = port("ns", "a", "p", "172.30.0.61", 80).with(p -> {
            p.externalIPs.add("192.168.99.1");
            p.endpoints.add(ep("10.180.0.1", 80, false));
            return p;
        });
        States.PortSpec b = port("ns", "b", "p", "172.30.0.62", 80).with(p -> {
            p.externalIPs.add("192.168.99.1");
            p.endpoints.add(ep("10.180.0.2", 80, false));
            return p;
        });
        IpvsPlan plan = render(List.of(b, a));
        assertThat(plan.v4().image().conflicts()).containsExactly("-t 192.168.99.1:80 of ns/b:p is already ns/a:p's");
        assertThat(plan.rulesetText()).contains("# conflict: -t 192.168.99.1:80 of ns/b:p is already ns/a:p's");
        assertThat(skips(List.of(b, a))).containsExactly(new Skipped(Skipped.Cause.DUPLICATE_VIRTUAL_SERVER, "virtual servers IPV4",
                "-t 192.168.99.1:80 of ns/b:p is already ns/a:p's"));
        assertThat(applied(List.of(a, b))).contains("vs VirtualServer[key=-t 192.168.99.1:80, scheduler=rr, flags=0, timeoutSeconds=0]\n"
                + "  rs RealServer[address=10.180.0.1, port=80, weight=1, forwarding=MASQUERADE]\ncreate ").contains("172.30.0.62");
        assertThat(plan.v4().image().serviceKeys().stream().mapToInt(k -> plan.v4().image().reals(k).size()).sum()).isEqualTo(3);
    }

    @Test
    void anUnknownSchedulerIsRefusedBeforeAnyPlan() {
        assertThatThrownBy(() -> new IpvsSettings("fastest", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ipvs.scheduler").hasMessageContaining("fastest");
        assertThatThrownBy(() -> new IpvsSettings("rr", List.of(), false, Duration.ofSeconds(-1), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        DataplaneSettings.Ipvs mh = new DataplaneSettings.Ipvs("mh", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO);
        IpvsPlan plan = new PlanRenderer(true).render(IpvsStates.state(List.of(IpvsStates.web()), mh));
        assertThat(plan.rulesetText()).contains("-A -t 172.30.0.41:80 -s mh -b mh-port\n");
        assertThat(new IpvsSettings("", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO).scheduler()).isEqualTo("rr");
        // The backend refuses what the configuration's Validator refuses: one list (IpvsConfig.SCHEDULERS).
        assertThatThrownBy(() -> new DataplaneSettings.Ipvs("RR", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be one of rr, wrr");
        assertThat(plan.loadableText(IpFamily.IPV6)).contains("# ipvsadm-restore");
    }

    @Test
    void aSchedulerTheKernelLacksSkipsEveryVirtualServerInsteadOfFailingTheSync() throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        kernel.setMissingSchedulers(Set.of("mh"));
        IpvsBackend b = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(T0));
        DataplaneSettings.Ipvs mh = new DataplaneSettings.Ipvs("mh", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO);
        States.PortSpec np = IpvsStates.web().with(p -> {
            p.nodePort = 30041;
            return p;
        });
        Plan plan = b.render(IpvsStates.state(List.of(np, IpvsStates.dns()), mh));
        assertThat(plan.rulesetText()).contains("# skipped: scheduler mh is not in the kernel (module ip_vs_mh not loadable); "
                + "virtual servers not programmed: -t 172.30.0.41:80, -t 192.168.0.2:30041").contains("-u 172.30.0.10:53");
        Transaction tx = b.diffFromKernel(plan, SyncOptions.at(T0));
        assertThat(tx.skipped()).isNotEmpty().extracting(Skipped::cause).containsOnly(Skipped.Cause.MISSING_SCHEDULER);
        b.apply(tx);
        assertThat(kernel.virtualServers()).isEmpty();
        Plan again = b.renderIncremental(tx.result(), IpvsStates.state(List.of(np, IpvsStates.dns()), mh), StateDelta.between(
                IpvsStates.state(List.of(np, IpvsStates.dns()), mh), IpvsStates.state(List.of(np, IpvsStates.dns()), mh)));
        assertThat(b.diff(Optional.of(tx.result()), again, SyncOptions.fullAt(T0)).skipped())
                .as("reported once: not again while nothing changed, not at a periodic full sync").isEmpty();
        assertThat(kernel.addresses(PartText.DUMMY)).isEmpty();
        assertThat(kernel.setEntries(IpSets.CLUSTER_IP.name(IpFamily.IPV4))).isEmpty();

        // The module loaded meanwhile: the next sync (an incremental one, nothing else changed) asks again and programs everything.
        kernel.setMissingSchedulers(Set.of());
        NodeState same = IpvsStates.state(List.of(np, IpvsStates.dns()), mh);
        Plan loaded = b.renderIncremental(tx.result(), same, StateDelta.between(same, same));
        b.apply(b.diff(Optional.of(tx.result()), loaded, SyncOptions.at(T0)));
        assertThat(kernel.virtualServers()).hasSize(3).allMatch(vs -> vs.scheduler().equals("mh"));
    }
}
