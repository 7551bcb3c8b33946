package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.Plan;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpFamily;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import io.kproxy.testkit.Golden;
import io.kproxy.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The node's configured {@code ipvs} section ({@code NodeState.settings().ipvs()}, which the fold
 * resolves from the recorded configuration) is what the backend renders with, through the same
 * provider {@code kproxy render --mode ipvs} and {@code render --at} use: the scheduler on every
 * virtual server, the timeouts and the strict-ARP sysctls.
 */
class ConfiguredSettingsRenderTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final DataplaneSettings.Ipvs CONFIGURED = new DataplaneSettings.Ipvs("wrr", List.of(Cidr.parse("198.51.100.0/24")), true,
            Duration.ofMinutes(15), Duration.ofMinutes(2), Duration.ofMinutes(5));

    @Test
    void theConfiguredSchedulerTimeoutsAndStrictArpAreRendered() {
        Backend backend = BackendProvider.forMode("ipvs").orElseThrow().create(new MemoryKernelPort(), new MemoryKernelPort());
        Plan plan = backend.render(IpvsStates.state(List.of(IpvsStates.web(), IpvsStates.dns()), CONFIGURED));
        Golden.assertMatches("ipvs/configured.txt", plan.rulesetText());
        Golden.assertMatches("ipvs/configured.v4.load", plan.loadableText(IpFamily.IPV4));
        assertThat(plan.rulesetText()).contains("-A -t 172.30.0.41:80 -s wrr\n").contains("-A -u 172.30.0.10:53 -s wrr\n")
                .contains("# ipvsadm --set 900 120 300\n").contains("# sysctl net/ipv4/conf/all/arp_ignore=1\n").doesNotContain("-s rr");
        Plan defaults = backend.render(IpvsStates.state(List.of(IpvsStates.web())));
        assertThat(defaults.rulesetText()).as("upstream's defaults")
                .contains("-A -t 172.30.0.41:80 -s rr\n").doesNotContain("# ipvs settings").doesNotContain("ipvsadm --set");
        Plan timeoutOnly = backend.render(IpvsStates.state(List.of(IpvsStates.web()), new DataplaneSettings.Ipvs("rr", List.of(), false,
                Duration.ofMinutes(15), Duration.ZERO, Duration.ZERO)));
        assertThat(timeoutOnly.rulesetHash()).as("a timeout alone changes the ruleset hash").isNotEqualTo(defaults.rulesetHash());
    }

    @Test
    void aNewSchedulerAloneEditsEveryVirtualServerInPlace() throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        IpvsBackend b = IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(T0));
        NodeState before = IpvsStates.state(List.of(IpvsStates.web(), IpvsStates.dns()));
        Transaction first = b.diff(Optional.empty(), b.render(before), SyncOptions.at(T0));
        b.apply(first);
        kernel.clearOperations();

        NodeState after = IpvsStates.state(List.of(IpvsStates.web(), IpvsStates.dns()), CONFIGURED);
        Plan plan = b.renderIncremental(first.result(), after, StateDelta.between(before, after));
        assertThat(plan.rulesetText()).isEqualTo(b.render(after).rulesetText());
        b.apply(b.diff(Optional.of(first.result()), plan, SyncOptions.at(T0)));

        assertThat(kernel.virtualServers()).hasSize(2).extracting(VirtualServer::scheduler).containsOnly("wrr");
        assertThat(kernel.operations()).noneMatch(o -> o.startsWith("delete-vs") || o.startsWith("add-vs"))
                .contains("timeouts 900 120 300", "sysctl net/ipv4/conf/all/arp_ignore=1");
    }
}
