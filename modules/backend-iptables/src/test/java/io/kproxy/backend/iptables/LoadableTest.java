package io.kproxy.backend.iptables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.testkit.IncrementalProperty;
import io.kproxy.backend.testkit.PacketWorld;
import io.kproxy.backend.testkit.RandomStates;
import io.kproxy.backend.testkit.States;
import io.kproxy.backend.testkit.UpstreamScenarios;
import io.kproxy.model.IpFamily;
import io.kproxy.state.NodePortAddresses;
import io.kproxy.state.NodeState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Plan.loadableText} (what {@code kproxy render --mode iptables --family} prints) loaded
 * into an empty strict fake leaves exactly what the agent's first full sync leaves there: the
 * transaction with the jumps and chains {@link Augment} adds after reading the (empty) kernel.
 * The kernel-level twin is {@code IptPacketFlowIT} loading the same text with the real tools.
 */
class LoadableTest {

    /** What the agent's first full sync leaves in an empty kernel: transaction plus {@link Augment}, one family. */
    static FakeIptables agentFullSync(IptPlan plan, Fam f) {
        String text = IptDiff.diff(Optional.empty(), plan, SyncOptions.at(Instant.parse("2026-01-01T00:00:00Z"))).text();
        FakeIptables kernel = new FakeIptables();
        for (Script.Section s : Script.parse(text).sections()) {
            if (s.family() == f.family()) {
                Augment.apply(s, SaveDump.parse(""), f.v6() ? plan.v6() : plan.v4());
                kernel.apply(f.header() + "\n" + s.merged());
            }
        }
        return kernel;
    }

    static FakeIptables loaded(IptPlan plan, Fam f) {
        FakeIptables kernel = new FakeIptables();
        // The fake files blocks under a family header; the loadable text is one family without one.
        kernel.apply(f.header() + "\n" + plan.loadableText(f.family()));
        return kernel;
    }

    static void assertSame(IptPlan plan, String what) {
        for (Fam f : List.of(Fam.V4, Fam.V6)) {
            assertThat(loaded(plan, f).dump()).as("%s %s", what, f.family()).isEqualTo(agentFullSync(plan, f).dump()).contains("INPUT");
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("io.kproxy.backend.testkit.IncrementalProperty#seeds")
    void loadedTextEqualsTheAgentsFullSyncForRandomStates(long seed) {
        IncrementalProperty.withSeed(seed, s -> {
            Random random = new Random(s);
            States.NodeSpec node = IptStates.node();
            node.localhostNodePorts = random.nextBoolean();
            node.masqueradeAll = random.nextBoolean();
            NodeState state = RandomStates.state(new RandomStates(s).initial(15 + random.nextInt(30)), node);
            assertSame(new PlanRenderer(random.nextBoolean() ? Features.DEFAULT : Features.UPSTREAM_TEST).render(state), "seed " + s);
        });
    }

    @Test
    void upstreamAndPacketScenariosLoadAsTheAgentPrograms() {
        assertSame(new PlanRenderer(Features.DEFAULT).render(IptStates.state(UpstreamScenarios.overall())), "overall");
        assertSame(new PlanRenderer(Features.DEFAULT).render(IptStates.state(PacketWorld.services())), "packet world");
        States.NodeSpec primary = IptStates.node();
        primary.localhostNodePorts = false;
        primary.v4NodePorts = new NodePortAddresses.Cidrs(List.of(States.cidr("192.168.0.2/32")));
        assertSame(new PlanRenderer(Features.DEFAULT).render(primary.state(PacketWorld.services())), "primary NodePorts");
    }

    @Test
    void oneFamilyPerTextJumpsInUpstreamsFinalOrderAndTheSysctlNamed() {
        IptPlan plan = new PlanRenderer(Features.DEFAULT).render(IptStates.state(PacketWorld.services()));
        String v4 = plan.loadableText(IpFamily.IPV4);
        String v6 = plan.loadableText(IpFamily.IPV6);
        assertThat(v4).doesNotContain("fd00:", "::1/128", "# IPv").contains(Loadable.ROUTE_LOCALNET);
        assertThat(v6).doesNotContain("10.0.1.", "127.0.0.0/8", "route_localnet", "# IPv");
        // Upstream prepends each jump (-I 1), kubelet's last: INPUT starts with kubelet's, then ours in reverse.
        List<String> input = v4.lines().filter(l -> l.startsWith("-A INPUT ")).toList();
        assertThat(input).containsExactly("-A INPUT -j KUBE-FIREWALL",
                "-A INPUT -m conntrack --ctstate NEW -m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL",
                "-A INPUT -m comment --comment \"kubernetes health check service ports\" -j KUBE-NODEPORTS",
                "-A INPUT -m conntrack --ctstate NEW -m comment --comment \"kubernetes externally-visible service portals\" -j KUBE-EXTERNAL-SERVICES");
        assertThat(v4.lines().filter(l -> l.startsWith("-A PREROUTING ") || l.startsWith("-A OUTPUT -m comment") || l.startsWith("-A POSTROUTING ")))
                .containsExactly("-A PREROUTING -m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES",
                        "-A OUTPUT -m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES",
                        "-A POSTROUTING -m comment --comment \"kubernetes postrouting rules\" -j KUBE-POSTROUTING");
        // Not the review text: that one keeps both families and no jumps, as before.
        assertThat(plan.rulesetText()).startsWith("# IPv4\n").contains("# IPv6\n").doesNotContain("-A INPUT ");
    }
}
