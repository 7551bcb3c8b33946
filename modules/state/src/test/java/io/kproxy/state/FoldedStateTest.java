package io.kproxy.state;

import static io.kproxy.state.Logs.tcp;
import static io.kproxy.state.Logs.v4;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.events.Envelope;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.EventSequence;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fold's handling of barriers, configuration, the Node, control records and offsets. */
class FoldedStateTest {

    static final ServiceFixture WEB = ServiceFixture.service("ns", "web").clusterIP("172.30.0.10").port("http", 80, "TCP");
    static final EndpointSliceFixture WEB_SLICE = EndpointSliceFixture.slice("ns", "web-1", "web").port("http", 8080, "TCP")
            .endpoint("10.0.0.1").node(Logs.NODE).zoneHints("zone-a").endpoint("10.0.0.2").node("node-b").zoneHints("zone-b");

    @Test
    void initialState() {
        FoldedState s = FoldedState.initial();
        assertThat(s.offset()).isEqualTo(-1);
        assertThat(s.node().synced()).isFalse();
        assertThat(s.node().node().name()).isEmpty();
        assertThat(s.node().node().eligible()).isTrue();
        assertThat(s.node().settings().mode()).isEqualTo("iptables");
        assertThat(s.node().settings().iptablesMasqueradeBit()).isEqualTo(14);
        assertThat(s.node().settings().localhostNodePorts()).isTrue();
        assertThat(s.node().ipv4().nodePortAddresses()).isEqualTo(new NodePortAddresses.MatchAll());
        assertThat(s.node().ipv4().localDetector()).isEqualTo(new LocalDetector.None());
        assertThat(s.cluster().configOffset()).isEmpty();
    }

    @Test
    void syncedOnlyAfterServicesAndSlicesSynced() {
        List<FoldStep> steps = Logs.steps(FoldedState.initial(), new ConfigRecorded(new NodeName(Logs.NODE), Json.Obj.EMPTY),
                WEB.observed(), new SourceSynced(ResourceKind.SERVICE, "10"), new SourceSynced(ResourceKind.NODE, "10"),
                new SourceSynced(ResourceKind.ENDPOINT_SLICE, "11"));
        assertThat(steps.stream().map(st -> st.state().node().synced()).toList()).containsExactly(false, false, false, false, true);
        // The projection exists before the barrier; only rendering waits for it.
        assertThat(v4(steps.get(1).state(), tcp("ns", "web", "http"))).isNotNull();
        assertThat(steps.getLast().state().cluster().nodeSynced()).isTrue();
    }

    @Test
    void controlRecordsAdvanceTheOffsetOnly() {
        FoldedState s = Logs.fold(Logs.synced().then(WEB.observed()));
        FoldStep applied = Logs.step(s, new SyncApplied("nftables", 1, s.offset(), SyncKind.FULL, "h", Duration.ofMillis(1)));
        assertThat(applied.state().offset()).isEqualTo(s.offset() + 1);
        assertThat(applied.delta().isEmpty()).isTrue();
        assertThat(applied.state().node()).isSameAs(s.node());
        assertThat(applied.state().cluster()).isSameAs(s.cluster());
    }

    @Test
    void aPinIsFoldedStateButLeavesTheLiveProjectionAlone() {
        FoldedState s = Logs.fold(Logs.synced().then(WEB.observed()));
        FoldStep pinned = Logs.step(s, new DataplanePinned(1, "bad deploy"));
        assertThat(pinned.state().offset()).isEqualTo(s.offset() + 1);
        assertThat(pinned.delta().isEmpty()).isTrue();
        assertThat(pinned.state().node()).as("the live projection").isSameAs(s.node());
        assertThat(pinned.state().pin()).contains(new Pin(1, s.offset() + 1, "bad deploy"));
        assertThat(pinned.state()).isNotEqualTo(FoldedState.fromSnapshot(s.toSnapshot()));
        // Live records keep folding under a pin, and the pin stays.
        FoldStep live = Logs.step(pinned.state(), WEB_SLICE.observed());
        assertThat(live.delta().isEmpty()).isFalse();
        assertThat(live.state().pin()).isEqualTo(pinned.state().pin());
        // Rolling back again re-pins: the newer pin replaces the older.
        FoldStep repinned = Logs.step(live.state(), new DataplanePinned(2, "further back"));
        assertThat(repinned.state().pin()).contains(new Pin(2, live.state().offset() + 1, "further back"));
        // Resume clears it; a second resume changes nothing.
        FoldStep unpinned = Logs.step(repinned.state(), new DataplaneUnpinned("fixed"));
        assertThat(unpinned.state().pin()).isEmpty();
        assertThat(unpinned.state().node()).isSameAs(live.state().node());
        FoldStep again = Logs.step(unpinned.state(), new DataplaneUnpinned("again"));
        assertThat(again.state().cluster()).isSameAs(unpinned.state().cluster());
    }

    @Test
    void aPinThatDoesNotPointBeforeItselfIsRejectedNotFolded() {
        FoldedState s = Logs.fold(Logs.synced());
        long next = s.offset() + 1;
        for (long to : new long[] {next, next + 5}) {
            FoldStep step = Logs.step(s, new DataplanePinned(to, "crafted"));
            assertThat(step.state().pin()).isEmpty();
            assertThat(step.rejections()).singleElement().satisfies(r -> {
                assertThat(r.kind()).isEqualTo("Pin");
                assertThat(r.field()).isEqualTo("toOffset");
                assertThat(r.reason()).contains("not before the pin's own record");
            });
        }
    }

    @Test
    void recordsMustArriveInOrder() {
        FoldedState s = Logs.fold(Logs.synced());
        Envelope old = new Envelope(s.offset(), Instant.EPOCH, "test", WEB.observed());
        assertThatThrownBy(() -> s.apply(old)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void originsAreKeptForExplain() {
        FoldedState s = Logs.fold(Logs.synced().then(WEB.resourceVersion("77").observed(), WEB_SLICE.resourceVersion("78").observed()));
        ServiceRef web = new ServiceRef("ns", "web");
        assertThat(s.cluster().serviceOrigin(web)).contains(new Origin(4, "77"));
        assertThat(s.cluster().sliceOrigins(web)).containsEntry(WEB_SLICE.ref(), new Origin(5, "78"));
        assertThat(s.cluster().serviceOrigin(new ServiceRef("ns", "nope"))).isEmpty();
        assertThat(s.cluster().configOffset()).hasValue(0);
    }

    @Test
    void relistDropsWhatVanished() {
        ServiceFixture other = ServiceFixture.service("ns", "other").clusterIP("172.30.0.11").port("", 53, "UDP");
        FoldedState s = Logs.fold(Logs.synced().then(WEB.observed(), other.observed(), WEB_SLICE.observed(),
                NodeFixture.node(Logs.NODE).internalIP("192.168.0.2").observed()));
        List<FoldStep> steps = Logs.steps(s, new SourceRelisted(ResourceKind.SERVICE, "20", Set.of("ns/web")),
                new SourceRelisted(ResourceKind.ENDPOINT_SLICE, "21", Set.of()), new SourceRelisted(ResourceKind.NODE, "22", Set.of()));
        assertThat(steps.get(0).state().cluster().services()).containsExactly(new ServiceRef("ns", "web"));
        assertThat(steps.get(0).delta().changedPorts()).containsExactly(Logs.udp("ns", "other", ""));
        assertThat(steps.get(1).state().cluster().endpointSliceCount()).isZero();
        assertThat(v4(steps.get(1).state(), tcp("ns", "web", "http")).endpoints()).isEmpty();
        assertThat(steps.get(2).state().node().node().observed()).isFalse();
        assertThat(steps.get(2).state().node().node().eligible()).isFalse();
        assertThat(steps.get(2).delta().nodeChanged()).isTrue();
    }

    @Test
    void nodeObjectGivesZoneAddressesAndEligibility() {
        FoldedState s = Logs.fold(Logs.synced().then(WEB.observed(), WEB_SLICE.observed()));
        FoldStep node = Logs.step(s, NodeFixture.node(Logs.NODE).zone("zone-a").externalIP("203.0.113.9").internalIP("192.168.0.2")
                .internalIP("fd00::2").podCIDRs("10.0.1.0/24", "fd01::/64").observed());
        NodeInfo info = node.state().node().node();
        assertThat(info.observed()).isTrue();
        assertThat(info.zone()).isEqualTo("zone-a");
        assertThat(Logs.strings(info.primaryIPs())).containsExactly("192.168.0.2", "fd00::2");
        assertThat(Logs.strings(node.state().node().ipv4().nodeIPs())).containsExactly("192.168.0.2");
        assertThat(node.delta().nodeChanged()).isTrue();
        // The zone makes the hints apply: only the zone-a endpoint serves cluster traffic.
        assertThat(Logs.hostPorts(v4(node.state(), tcp("ns", "web", "http")).clusterEndpoints())).containsExactly("10.0.0.1:8080");
        assertThat(node.delta().changedPorts()).containsExactly(tcp("ns", "web", "http"));

        FoldStep tainted = Logs.step(node.state(), NodeFixture.node(Logs.NODE).zone("zone-a").internalIP("192.168.0.2")
                .taint(NodeParser.TAINT_TO_BE_DELETED, "NoSchedule").resourceVersion("2").observed());
        assertThat(tainted.state().node().node().eligible()).isFalse();
        FoldStep deleting = Logs.step(node.state(), NodeFixture.node(Logs.NODE).deleting("2026-01-01T00:00:00Z").observed());
        assertThat(deleting.state().node().node().eligible()).isFalse();
        FoldStep deleted = Logs.step(node.state(), new NodeDeleted(new NodeName(Logs.NODE), "3", false));
        assertThat(deleted.state().node().node().eligible()).isFalse();
        assertThat(deleted.state().node().node().zone()).isEmpty();
        assertThat(deleted.state().cluster().nodeOrigin()).isPresent();
    }

    @Test
    void anotherNodeIsIgnoredAndReported() {
        FoldStep step = Logs.step(Logs.fold(Logs.synced()), NodeFixture.node("somebody-else").zone("zone-x").observed());
        assertThat(step.state().node().node().observed()).isFalse();
        assertThat(step.delta().isEmpty()).isTrue();
        assertThat(step.rejections()).singleElement().satisfies(r -> {
            assertThat(r.kind()).isEqualTo("Node");
            assertThat(r.key()).isEqualTo("somebody-else");
        });
    }

    @Test
    void nftablesDefaultsNodePortsToPrimaryIPs() {
        Json.Obj config = Json.obj("mode", Json.of("nftables"), "nftables", Json.obj("masqueradeAll", Json.of(true), "masqueradeBit",
                Json.of(5)), "iptables", Json.obj("masqueradeAll", Json.of(false)));
        FoldedState s = Logs.fold(Logs.synced(config).then(NodeFixture.node(Logs.NODE).internalIP("192.168.0.2").observed()));
        assertThat(s.node().settings().mode()).isEqualTo("nftables");
        assertThat(s.node().settings().masqueradeAll()).isTrue();
        assertThat(s.node().settings().nftablesMasqueradeBit()).isEqualTo(5);
        assertThat(s.node().ipv4().nodePortAddresses()).isEqualTo(new NodePortAddresses.Cidrs(List.of(io.kproxy.model.Cidr.parse(
                "192.168.0.2/32"))));
        // No IPv6 node IP: that family matches all (NewNodePortAddresses).
        assertThat(s.node().ipv6().nodePortAddresses()).isEqualTo(new NodePortAddresses.MatchAll());
    }

    @Test
    void nodePortAddressesKeywordsAndCidrs() {
        assertThat(npa(List.of("10.0.0.0/8", "fd00::/64"), IpFamily.IPV4)).isEqualTo(cidrs("10.0.0.0/8"));
        assertThat(npa(List.of("10.0.0.0/8", "fd00::/64"), IpFamily.IPV6)).isEqualTo(cidrs("fd00::/64"));
        assertThat(npa(List.of("10.0.0.0/8", "0.0.0.0/0"), IpFamily.IPV4)).isEqualTo(new NodePortAddresses.MatchAll());
        assertThat(npa(List.of("10.0.0.0/8"), IpFamily.IPV6)).isEqualTo(new NodePortAddresses.MatchAll());
        assertThat(npa(List.of("localhost"), IpFamily.IPV4)).isEqualTo(cidrs("127.0.0.0/8"));
        assertThat(npa(List.of("localhost", "primary"), IpFamily.IPV6)).isEqualTo(cidrs("::1/128"));
        assertThat(npa(List.of("all"), IpFamily.IPV4)).isEqualTo(new NodePortAddresses.MatchAll());
        assertThat(npa(List.of("primary"), IpFamily.IPV4)).isEqualTo(cidrs("192.168.0.2/32"));
        assertThat(npa(List.of(), IpFamily.IPV4)).isEqualTo(new NodePortAddresses.MatchAll());
    }

    @Test
    void bindAddressOverridesTheNodeIPOfItsFamily() {
        Json.Obj config = Json.obj("bindAddress", Json.of("192.168.7.7"), "nodePortAddresses", Json.arr(Json.of("primary")));
        FoldedState s = Logs.fold(Logs.synced(config).then(NodeFixture.node(Logs.NODE).internalIP("192.168.0.2").observed()));
        assertThat(Logs.strings(s.node().ipv4().nodeIPs())).containsExactly("192.168.7.7");
        assertThat(s.node().ipv4().nodePortAddresses()).isEqualTo(cidrs("192.168.7.7/32"));
    }

    @Test
    void localDetectorPerMode() {
        assertThat(detector(Json.obj("clusterCIDR", Json.of("10.0.0.0/8,fd00::/48,10.1.0.0/16")), IpFamily.IPV4)).isEqualTo(
                new LocalDetector.Cidrs(List.of(io.kproxy.model.Cidr.parse("10.0.0.0/8"))));
        assertThat(detector(Json.obj("clusterCIDR", Json.of("10.0.0.0/8,fd00::/48")), IpFamily.IPV6)).isEqualTo(
                new LocalDetector.Cidrs(List.of(io.kproxy.model.Cidr.parse("fd00::/48"))));
        assertThat(detector(Json.obj("clusterCIDR", Json.of("10.0.0.0/8")), IpFamily.IPV6)).isEqualTo(new LocalDetector.None());
        assertThat(detector(Json.obj("detectLocalMode", Json.of("NodeCIDR")), IpFamily.IPV4)).isEqualTo(
                new LocalDetector.Cidrs(List.of(io.kproxy.model.Cidr.parse("10.0.1.0/24"))));
        assertThat(detector(Json.obj("detectLocalMode", Json.of("BridgeInterface"), "detectLocal", Json.obj("bridgeInterface",
                Json.of("cbr0"))), IpFamily.IPV6)).isEqualTo(new LocalDetector.BridgeInterface("cbr0"));
        assertThat(detector(Json.obj("detectLocalMode", Json.of("InterfaceNamePrefix"), "detectLocal", Json.obj("interfaceNamePrefix",
                Json.of("veth"))), IpFamily.IPV4)).isEqualTo(new LocalDetector.InterfacePrefix("veth"));
    }

    @Test
    void badConfigValuesFallBackToDefaultsAndAreReported() {
        Json.Obj config = Json.obj("mode", Json.of("userspace"), "clusterCIDR", Json.of("10.0.0.0/33"), "iptables",
                Json.obj("masqueradeBit", Json.of(40), "localhostNodePorts", Json.of("yes")), "nodePortAddresses",
                Json.arr(Json.of("banana"), Json.of("10.0.0.0/8")), "bindAddress", Json.of("nope"), "detectLocalMode", Json.of("Magic"));
        FoldStep step = Logs.step(FoldedState.initial(), new ConfigRecorded(new NodeName(Logs.NODE), config));
        assertThat(step.state().node().settings().mode()).isEqualTo("iptables");
        assertThat(step.state().node().settings().iptablesMasqueradeBit()).isEqualTo(14);
        assertThat(step.state().node().ipv4().nodePortAddresses()).isEqualTo(cidrs("10.0.0.0/8"));
        assertThat(step.rejections()).extracting(Rejection::field).containsExactlyInAnyOrder("mode", "clusterCIDR[0]",
                "iptables.masqueradeBit", "iptables.localhostNodePorts", "nodePortAddresses[0]", "bindAddress", "detectLocalMode");
        assertThat(step.rejections()).allSatisfy(r -> assertThat(r.kind()).isEqualTo("Config"));
        assertThat(step.delta().settingsChanged()).isFalse();
        assertThat(step.delta().nodeChanged()).isTrue();
    }

    private static NodePortAddresses npa(List<String> entries, IpFamily f) {
        Json.Obj config = Json.obj("nodePortAddresses", Json.arr(entries.stream().map(e -> (Json) Json.of(e)).toList()));
        FoldedState s = Logs.fold(Logs.synced(config).then(NodeFixture.node(Logs.NODE).internalIP("192.168.0.2").observed()));
        return s.node().family(f).nodePortAddresses();
    }

    private static NodePortAddresses cidrs(String... cidrs) {
        return new NodePortAddresses.Cidrs(java.util.Arrays.stream(cidrs).map(io.kproxy.model.Cidr::parse).toList());
    }

    private static LocalDetector detector(Json.Obj config, IpFamily f) {
        FoldedState s = Logs.fold(EventSequence.create().config(Logs.NODE, config).then(NodeFixture.node(Logs.NODE)
                .podCIDRs("10.0.1.0/24", "fd01::/64").observed()));
        return s.node().family(f).localDetector();
    }
}
