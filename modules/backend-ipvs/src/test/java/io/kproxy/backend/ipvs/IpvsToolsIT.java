package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.testkit.States;
import io.kproxy.model.IpFamily;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real tools accept what the golden scenarios render, each family in a fresh private
 * namespace: {@code ipset restore} loads the sets and members, {@code iptables-restore --test}
 * (ip6tables for IPv6) accepts the helper rules that match them, and the rules load for real
 * unless they use the {@code ipvs} match, which needs {@code xt_ipvs}, missing from kernels
 * without IPVS such as this development one (the User-Mode-Linux runner has it). IPVS itself and
 * the dummy device are not probed here for the same reason.
 */
class IpvsToolsIT {

    private static final AtomicInteger LOADED = new AtomicInteger();

    @BeforeAll
    static void tools() {
        KernelTests.require("ip", "ipset", "iptables-restore", "ip6tables-restore");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.kproxy.backend.ipvs.RenderGoldenTest#scenarios")
    void theToolsLoadWhatEachScenarioRenders(String scenario, List<States.PortSpec> specs) {
        IpvsPlan plan = new PlanRenderer(true).render(IpvsStates.state(specs));
        for (IpFamily f : IpFamily.values()) {
            String load = plan.loadableText(f);
            String sets = section(load, "# ipset restore\n");
            String rules = section(load, f == IpFamily.IPV4 ? "# iptables-restore --noflush\n" : "# ip6tables-restore --noflush\n");
            String tool = f == IpFamily.IPV4 ? "iptables-restore" : "ip6tables-restore";
            try (NetNs ns = NetNs.create("ipvs-tools")) {
                ns.execWithInput(sets, "ipset", "restore");
                assertThat(ns.exec("ipset", "list", "-n").lines().count()).isEqualTo(IpSets.values().length);
                ns.execWithInput(rules, tool, "--test", "--noflush");
                if (!rules.contains(" -m ipvs ")) {
                    ns.execWithInput(rules, tool, "--noflush");
                    String saved = ns.exec(f == IpFamily.IPV4 ? "iptables-save" : "ip6tables-save");
                    assertThat(saved).contains("-A KUBE-IPVS-FILTER -m conntrack --ctstate NEW -m set --match-set " + IpSets.IPVS_IPS.name(f)
                            + " dst -j REJECT");
                    LOADED.incrementAndGet();
                }
            }
        }
    }

    @AfterAll
    static void mostScenariosLoadedForReal() {
        assertThat(LOADED.get()).as("families loaded for real, not only tested").isGreaterThanOrEqualTo(16);
    }

    /** The lines after {@code marker} up to the next section marker ({@code # } at a line start). */
    private static String section(String text, String marker) {
        int start = text.indexOf(marker);
        assertThat(start).as("section " + marker.strip()).isNotNegative();
        start += marker.length();
        StringBuilder b = new StringBuilder();
        for (String line : text.substring(start).split("\n")) {
            if (line.startsWith("# ")) {
                break;
            }
            b.append(line).append('\n');
        }
        return b.toString();
    }
}
