package io.kproxy.backend.nftables;

import static io.kproxy.backend.testkit.States.ep;
import static io.kproxy.backend.testkit.States.port;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.ConntrackFilters;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.backend.testkit.States;
import io.kproxy.backend.testkit.UpstreamScenarios;
import io.kproxy.model.Protocol;
import io.kproxy.state.LocalDetector;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SmallPiecesTest {

    @Test
    void providerIsFoundByMode() {
        assertThat(BackendProvider.forMode("nftables")).get().extracting(BackendProvider::mode).isEqualTo("nftables");
    }

    @Test
    void newSetsAreFoundByIdFromLinux612() {
        assertThat(NetlinkKernelPort.findsNewSetsById("6.18.44-fc-v669")).isTrue();
        assertThat(NetlinkKernelPort.findsNewSetsById("6.12.0")).isTrue();
        assertThat(NetlinkKernelPort.findsNewSetsById("7.0.1-arch1")).isTrue();
        assertThat(NetlinkKernelPort.findsNewSetsById("6.11.9")).isFalse();
        assertThat(NetlinkKernelPort.findsNewSetsById("5.15.0-91-generic")).isFalse();
        assertThat(NetlinkKernelPort.findsNewSetsById("")).isFalse();
    }

    @Test
    void refusalFromAFileNamesTheLine() {
        String script = "add table ip kube-proxy\nadd rule ip kube-proxy nope accept\n";
        KernelException e = NftKernelPort.refusal(script,
                "/tmp/kproxy-nft-1.nft:2:25-28: Error: No such file or directory; did you mean chain 'x'?\nadd rule ...\n");
        assertThat(e.failingLineNumber()).contains(2);
        assertThat(e.failingLine()).contains("add rule ip kube-proxy nope accept");
        assertThat(e.retryable()).isFalse();
        assertThat(NftKernelPort.refusal(script, "Error: Could not process rule: Device or resource busy").retryable()).isTrue();
    }

    @Test
    void interfaceNamesThatCouldInjectRulesDisableTheDetector() {
        assertThat(LocalTraffic.of(NftFamily.V4, new LocalDetector.BridgeInterface("br0\" accept #"))).isEmpty();
        assertThat(LocalTraffic.of(NftFamily.V4, new LocalDetector.InterfacePrefix("veth"))).get()
                .extracting(LocalTraffic::ifLocal).isEqualTo("iifname \"veth*\"");
    }

    @Test
    void conntrackFiltersCoverEveryServiceIpAndTheNodePortOfUdpPortsOnly() {
        States.PortSpec udp = port("ns1", "dns", "dns", "172.30.0.53", 53);
        udp.protocol = Protocol.UDP;
        udp.nodePort = 30053;
        udp.externalIPs.add("192.168.99.53");
        udp.lbIPs.add("198.51.100.53");
        udp.endpoints.add(ep("10.0.1.11", 5353, true));
        udp.endpoints.add(States.terminating("10.0.1.12", 5353, true, false));
        ServicePortState u = udp.build();
        ServicePortState t = port("ns1", "web", "", "172.30.0.80", 80).with(p -> {
            p.endpoints.add(ep("10.0.1.11", 80, true));
            return p;
        }).build();
        var state = NftStates.state(List.of(u, t));
        List<ConntrackFilter> f = ConntrackFilters.of(new StateDelta(Set.of(u.name(), t.name()), Set.of(u.name(), t.name()), false, false), state);
        assertThat(f).hasSize(4);
        assertThat(f).allSatisfy(x -> assertThat(x.keepReplySources()).containsExactly(States.ip("10.0.1.11")));
        assertThat(f.getLast().originalDestination()).isEmpty();
        assertThat(f.getLast().originalPort()).isEqualTo(30053);
        assertThat(f.getFirst().matches(States.ip("172.30.0.53"), 53, States.ip("10.0.1.12"))).isTrue();
        assertThat(f.getFirst().matches(States.ip("172.30.0.53"), 53, States.ip("10.0.1.11"))).isFalse();
    }

    @Test
    void backendAppliesThroughItsPortAndSkipsEmptyTransactions() throws KernelException {
        MemoryKernelPort port = new MemoryKernelPort();
        try (var backend = new NftablesProvider().create(port, port)) {
            var plan = backend.render(NftStates.state(UpstreamScenarios.overall()));
            var full = backend.diff(Optional.empty(), plan, SyncOptions.at(Instant.EPOCH));
            backend.apply(full);
            backend.apply(backend.diff(Optional.of(full.result()), plan, SyncOptions.at(Instant.EPOCH)));
            backend.cleanup();
            assertThat(port.applied()).hasSize(2);
            assertThat(port.applied().getLast()).isEqualTo(NftBackend.cleanupText());
        }
    }
}
