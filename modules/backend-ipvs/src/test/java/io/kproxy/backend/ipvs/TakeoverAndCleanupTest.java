package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.ipvs.spi.MemoryIpvsKernel;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.NodeState;
import io.kproxy.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A restarted agent takes the kernel over in place ({@code diffFromKernel}): what is right stays
 * untouched, a stale virtual server goes unless {@code excludeCIDRs} covers it, a weight-0 real
 * server gets weight 1 again; and {@code cleanup} removes what ipvs mode owns and only on a node
 * that runs it.
 */
class TakeoverAndCleanupTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    /** The node's configured {@code ipvs} section (renders read it from the state; cleanup gets it from the provider). */
    private static final DataplaneSettings.Ipvs EXCLUDING = new DataplaneSettings.Ipvs("rr", List.of(Cidr.parse("198.51.100.0/24")), true,
            Duration.ofSeconds(900), Duration.ZERO, Duration.ofSeconds(300));

    @Test
    void aRestartTakesTheKernelOverWithoutTouchingWhatIsRight() throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        SettableClock clock = new SettableClock(T0);
        NodeState state = IpvsStates.state(List.of(IpvsStates.web(), IpvsStates.dns()), EXCLUDING);
        IpvsBackend first = IpvsProvider.create(IpvsSettings.of(EXCLUDING), kernel, new MemoryKernelPort(), clock);
        first.apply(first.diff(Optional.empty(), first.render(state), SyncOptions.at(T0)));
        VsKey stale = new VsKey(Protocol.TCP, IpAddress.parse("172.30.0.99"), 80);
        VsKey foreign = new VsKey(Protocol.TCP, IpAddress.parse("198.51.100.7"), 80);
        kernel.addVirtualServer(new VirtualServer(stale, "rr", 0, 0));
        kernel.addVirtualServer(new VirtualServer(foreign, "wrr", 0, 0));
        VsKey web = new VsKey(Protocol.TCP, IpAddress.parse("172.30.0.41"), 80);
        kernel.updateRealServer(web, RealServer.serving(IpAddress.parse("10.180.0.1"), 8080).withWeight(0));
        kernel.clearOperations();

        IpvsBackend second = IpvsProvider.create(IpvsSettings.of(EXCLUDING), kernel, new MemoryKernelPort(), clock);
        Transaction tx = second.diffFromKernel(second.render(state), SyncOptions.at(T0));
        second.apply(tx);

        assertThat(tx.isFull()).isTrue();
        assertThat(kernel.operations()).filteredOn(o -> o.startsWith("add-vs") || o.startsWith("add-rs") || o.startsWith("add-entry"))
                .isEmpty();
        assertThat(kernel.operations()).contains("delete-vs " + stale, "update-rs " + web
                + " RealServer[address=10.180.0.1, port=8080, weight=1, forwarding=MASQUERADE]");
        assertThat(kernel.dump()).contains(foreign.toString()).doesNotContain(stale.toString());
        assertThat(kernel.operations()).contains("timeouts 900 0 300", "sysctl net/ipv4/conf/all/arp_ignore=1",
                "sysctl net/ipv4/conf/all/arp_announce=2");
    }

    @Test
    void cleanupRemovesWhatIpvsModeOwnsAndSparesExcludedServers() throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        IpvsBackend b = IpvsProvider.create(IpvsSettings.of(EXCLUDING), kernel, new MemoryKernelPort(), new SettableClock(T0));
        b.apply(b.diff(Optional.empty(), b.render(IpvsStates.state(List.of(IpvsStates.web()), EXCLUDING)), SyncOptions.at(T0)));
        VsKey foreign = new VsKey(Protocol.TCP, IpAddress.parse("198.51.100.7"), 80);
        kernel.addVirtualServer(new VirtualServer(foreign, "wrr", 0, 0));
        assertThat(b.rulesIntact()).isTrue();

        b.cleanup();

        assertThat(b.rulesIntact()).isFalse();
        assertThat(kernel.virtualServers()).extracting(VirtualServer::key).containsExactly(foreign);
        assertThat(kernel.sets()).isEmpty();
        assertThat(kernel.linkExists("kube-ipvs0")).isFalse();
        assertThat(kernel.dump()).doesNotContain("KUBE-").doesNotContain("jump");
        b.cleanup();
    }

    @Test
    void aVirtualServerDeletedBehindKproxysBackIsRestoredByTheNextFullSyncAndAnExcludedOneIsLeftAlone() throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        IpvsBackend b = IpvsProvider.create(IpvsSettings.of(EXCLUDING), kernel, new MemoryKernelPort(), new SettableClock(T0));
        NodeState state = IpvsStates.state(List.of(IpvsStates.web(), IpvsStates.dns()), EXCLUDING);
        Transaction first = b.diff(Optional.empty(), b.render(state), SyncOptions.at(T0));
        b.apply(first);
        VsKey foreign = new VsKey(Protocol.TCP, IpAddress.parse("198.51.100.7"), 80);
        kernel.addVirtualServer(new VirtualServer(foreign, "wrr", 0, 0));
        kernel.deleteVirtualServer(new VsKey(Protocol.UDP, IpAddress.parse("172.30.0.10"), 53));
        assertThat(b.rulesIntact()).as("the cheap probe lists no virtual servers").isTrue();
        Transaction full = b.diff(Optional.of(first.result()), b.render(state), SyncOptions.fullAt(T0));
        assertThat(full.text()).contains("ipvsadm -A -u 172.30.0.10:53 -s rr").doesNotContain("198.51.100.7");
        b.apply(full);
        assertThat(kernel.virtualServers()).extracting(VirtualServer::key).contains(foreign, new VsKey(Protocol.UDP,
                IpAddress.parse("172.30.0.10"), 53));
    }

    @Test
    void cleanupOnANodeWithoutIpvsModeTouchesNothing() throws Exception {
        MemoryIpvsKernel kernel = new MemoryIpvsKernel();
        kernel.iptablesRestore(IpFamily.IPV4, "*nat\n:KUBE-SERVICES - [0:0]\n-A KUBE-SERVICES -j RETURN\nCOMMIT\n");
        kernel.clearOperations();
        IpvsProvider.create(IpvsSettings.DEFAULT, kernel, new MemoryKernelPort(), new SettableClock(T0)).cleanup();
        assertThat(kernel.operations()).isEmpty();
        assertThat(kernel.dump()).contains("-A KUBE-SERVICES -j RETURN");
    }
}
