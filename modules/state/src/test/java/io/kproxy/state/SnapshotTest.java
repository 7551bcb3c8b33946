package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.Json;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.EventSequence;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SnapshotTest {

    static FoldedState rich() {
        Json.Obj config = Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/8,fd00::/48"), "nodePortAddresses",
                Json.arr(Json.of("primary"), Json.of("localhost")), "bindAddress", Json.of("192.168.0.9"), "kproxy",
                Json.obj("serviceCIDRs", Json.arr(Json.of("172.30.0.0/16"))));
        return Logs.fold(Logs.synced(config).then(
                NodeFixture.node(Logs.NODE).zone("zone-a").internalIP("192.168.0.2").internalIP("fd00:9::2").podCIDRs("10.0.1.0/24")
                        .observed(),
                ServiceFixture.service("ns", "lb").type("LoadBalancer").ipFamilies("IPv4", "IPv6").clusterIP("172.30.0.1")
                        .clusterIP("fd00::1").port("http", 80, "TCP", 30080).port("dns", 53, "UDP", 30053).externalIPs("1.2.3.4")
                        .loadBalancerIngress("5.6.7.8").loadBalancerSourceRanges("10.0.0.0/8").externalTrafficPolicy("Local")
                        .healthCheckNodePort(32000).sessionAffinity(300).resourceVersion("41").observed(),
                ServiceFixture.service("ns", "headless").clusterIP("None").observed(),
                EndpointSliceFixture.slice("ns", "lb-1", "lb").port("http", 8080, "TCP").port("dns", 5353, "UDP").endpoint("10.0.0.1")
                        .node(Logs.NODE).zoneHints("zone-a").nodeHints(Logs.NODE).endpoint("10.0.0.2").ready(false).serving(true)
                        .terminating(true).resourceVersion("42").observed(),
                EndpointSliceFixture.slice("ns", "lb-2", "lb").addressType("IPv6").port("http", 8080, "TCP").endpoint("fd00:1::1")
                        .observed(),
                EndpointSliceFixture.slice("ns", "lb-fqdn", "lb").addressType("FQDN").endpoint("example.com").observed()));
    }

    @Test
    void roundTripsExactly() {
        FoldedState s = rich();
        byte[] snap = s.toSnapshot();
        assertThat(snap[0]).as("format version first").isEqualTo(SnapshotCodec.VERSION);
        FoldedState back = FoldedState.fromSnapshot(snap);
        assertThat(back).isEqualTo(s);
        assertThat(back.cluster()).isEqualTo(s.cluster());
        assertThat(back.node()).isEqualTo(s.node());
        assertThat(back.offset()).isEqualTo(s.offset());
        assertThat(back.cluster().sliceOrigins(new io.kproxy.model.ServiceRef("ns", "lb"))).isEqualTo(
                s.cluster().sliceOrigins(new io.kproxy.model.ServiceRef("ns", "lb")));
        assertThat(FoldedState.fromSnapshot(FoldedState.initial().toSnapshot())).isEqualTo(FoldedState.initial());
    }

    @Test
    void aLargeStateIsProjectedInTwoHalvesToTheSameNodeState() {
        // Above Projector.SPLIT_FROM_SERVICES the decoded state is projected on two threads: the node state
        // must equal the one the fold kept incrementally, in both families, with every kind of port.
        Json.Obj config = Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/8,fd00::/48"));
        EventSequence seq = Logs.synced(config).then(NodeFixture.node(Logs.NODE).zone("zone-a").internalIP("192.168.0.2").observed());
        int n = Projector.SPLIT_FROM_SERVICES + 501;
        for (int i = 0; i < n; i++) {
            String name = "svc-" + i;
            ServiceFixture svc = ServiceFixture.service("ns" + i % 7, name).clusterIP("172.30." + i / 250 + "." + i % 250)
                    .port("http", 80, "TCP");
            if (i % 3 == 0) {
                svc = svc.ipFamilies("IPv4", "IPv6").clusterIP("fd00::" + Integer.toHexString(i + 1)).port("dns", 53, "UDP");
            }
            if (i % 5 == 0) {
                svc = svc.type("LoadBalancer").externalTrafficPolicy("Local").healthCheckNodePort(30000 + i % 2000)
                        .loadBalancerIngress("5.6." + i / 250 + "." + i % 250);
            }
            EndpointSliceFixture slice = EndpointSliceFixture.slice("ns" + i % 7, name + "-1", name).port("http", 8080, "TCP")
                    .port("dns", 5353, "UDP").endpoint("10.1." + i / 250 + "." + i % 250).node(i % 4 == 0 ? Logs.NODE : "other");
            if (i % 6 == 0) {
                slice = slice.endpoint("10.2." + i / 250 + "." + i % 250).ready(false).serving(true).terminating(true);
            }
            seq = seq.then(svc.observed(), slice.observed());
            if (i % 3 == 0) {
                seq = seq.then(EndpointSliceFixture.slice("ns" + i % 7, name + "-6", name).addressType("IPv6").port("dns", 5353, "UDP")
                        .endpoint("fd00:1::" + Integer.toHexString(i + 1)).observed());
            }
        }
        FoldedState s = Logs.fold(seq);
        assertThat(s.cluster().services.size()).isGreaterThanOrEqualTo(Projector.SPLIT_FROM_SERVICES);
        FoldedState back = FoldedState.fromSnapshot(s.toSnapshot());
        assertThat(back.node().ipv4().ports()).hasSize(s.node().ipv4().ports().size()).isEqualTo(s.node().ipv4().ports());
        assertThat(back.node().ipv6().ports()).isNotEmpty().isEqualTo(s.node().ipv6().ports());
        assertThat(back.node()).isEqualTo(s.node());
        assertThat(back).isEqualTo(s);
    }

    @Test
    void aPinRoundTripsAndSurvivesARestartFromTheSnapshot() {
        FoldedState s = rich();
        FoldedState pinned = s.apply(new io.kproxy.events.Envelope(s.offset() + 1, java.time.Instant.EPOCH, "test",
                new io.kproxy.events.DataplanePinned(2, "roll back \u00e9"))).state();
        FoldedState back = FoldedState.fromSnapshot(pinned.toSnapshot());
        assertThat(back).isEqualTo(pinned);
        assertThat(back.pin()).contains(new Pin(2, s.offset() + 1, "roll back \u00e9"));
        assertThat(back.node()).isEqualTo(s.node());
    }

    /**
     * A snapshot written by the first format (before pins were folded, {@code rich-v1.bin}, made
     * from {@link #rich()} by the version-1 encoder) still decodes, to the same state with no pin.
     */
    @Test
    void readsFormatVersion1() throws Exception {
        byte[] v1 = committed("rich-v1.bin");
        assertThat(v1[0]).isEqualTo(SnapshotCodec.VERSION_1);
        FoldedState back = FoldedState.fromSnapshot(v1);
        assertThat(back).isEqualTo(rich());
        assertThat(back.pin()).isEmpty();
        assertThat(back.toSnapshot()[0]).as("written again in the current format").isEqualTo(SnapshotCodec.VERSION);
    }

    /**
     * A snapshot written by format version 2 (before ServiceCIDRs were folded,
     * {@code rich-v2.bin}, made from {@link #rich()} by the version-2 encoder) still decodes, to
     * the same state with no ServiceCIDR, so the configured ranges stay in force.
     */
    @Test
    void readsFormatVersion2() throws Exception {
        byte[] v2 = committed("rich-v2.bin");
        assertThat(v2[0]).isEqualTo(SnapshotCodec.VERSION_2);
        FoldedState back = FoldedState.fromSnapshot(v2);
        assertThat(back).isEqualTo(rich());
        assertThat(back.cluster().serviceCidrOrigins()).isEmpty();
        assertThat(back.node().settings().serviceCIDRs()).extracting(Object::toString).containsExactly("172.30.0.0/16");
        assertThat(back.toSnapshot()[0]).as("written again in the current format").isEqualTo(SnapshotCodec.VERSION);
    }

    /**
     * A snapshot written by format version 3 (before the ipvs settings were folded,
     * {@code rich-v3.bin}, made from {@link #rich()} by the version-3 encoder) still decodes, with
     * upstream's ipvs defaults (what ipvs mode rendered with then).
     */
    @Test
    void readsFormatVersion3() throws Exception {
        byte[] v3 = committed("rich-v3.bin");
        assertThat(v3[0]).isEqualTo(SnapshotCodec.VERSION_3);
        FoldedState back = FoldedState.fromSnapshot(v3);
        assertThat(back).isEqualTo(rich());
        assertThat(back.node().settings().ipvs()).isEqualTo(DataplaneSettings.Ipvs.DEFAULT);
        assertThat(back.toSnapshot()[0]).as("written again in the current format").isEqualTo(SnapshotCodec.VERSION);
    }

    @Test
    void theIpvsSettingsRoundTrip() {
        Json.Obj config = Json.obj("mode", Json.of("ipvs"), "ipvs", Json.obj("scheduler", Json.of("mh"), "excludeCIDRs",
                Json.arr(Json.of("10.96.0.0/12"), Json.of("fd00:96::/108")), "strictARP", Json.of(true), "tcpTimeout", Json.of("15m"),
                "tcpFinTimeout", Json.of("1.5s"), "udpTimeout", Json.of("5m")));
        FoldedState s = Logs.fold(Logs.synced(config));
        FoldedState back = FoldedState.fromSnapshot(s.toSnapshot());
        assertThat(back).isEqualTo(s);
        assertThat(back.node().settings().ipvs().scheduler()).isEqualTo("mh");
        assertThat(back.node().settings().ipvs().tcpFinTimeout()).isEqualTo(java.time.Duration.ofMillis(1500));
    }

    /** A snapshot committed under {@code src/test/resources/snapshots}, written by an earlier format's encoder. */
    private static byte[] committed(String name) throws java.io.IOException {
        try (var in = SnapshotTest.class.getResourceAsStream("/snapshots/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void aPinAfterTheSnapshotOffsetIsRefused() {
        FoldedState s = rich();
        FoldedState pinned = s.apply(new io.kproxy.events.Envelope(s.offset() + 1, java.time.Instant.EPOCH, "test",
                new io.kproxy.events.DataplanePinned(2, "x"))).state();
        byte[] snap = pinned.toSnapshot();
        // Rewrite the snapshot's own offset (bytes 1..8) to one before the pin record, with a valid checksum.
        java.nio.ByteBuffer.wrap(snap, 1, 8).putLong(s.offset());
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(snap, 0, snap.length - 4);
        java.nio.ByteBuffer.wrap(snap, snap.length - 4, 4).putInt((int) crc.getValue());
        assertThatThrownBy(() -> FoldedState.fromSnapshot(snap)).isInstanceOf(SnapshotDecodeException.class)
                .hasMessageContaining("after the snapshot's offset");
    }

    @Test
    void invalidValuesBehindAValidChecksumAreRefused() {
        byte[] snap = rich().toSnapshot();
        // version(1) offset(8) nodeName(4+9) mode(4+8) masqueradeAll(1), then the iptables masquerade bit.
        int bitAt = 1 + 8 + 4 + Logs.NODE.length() + 4 + "nftables".length() + 1;
        assertThat(snap[bitAt]).isEqualTo((byte) 14);
        snap[bitAt] = 40;
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(snap, 0, snap.length - 4);
        java.nio.ByteBuffer.wrap(snap, snap.length - 4, 4).putInt((int) crc.getValue());
        assertThatThrownBy(() -> FoldedState.fromSnapshot(snap)).isInstanceOf(SnapshotDecodeException.class)
                .hasMessageContaining("invalid value");
    }

    /** A Service or a slice written twice (behind a valid checksum) is refused, whichever value would win. */
    @Test
    void aKeyWrittenTwiceIsRefused() {
        FoldedState s = Logs.fold(Logs.synced(Json.obj("mode", Json.of("nftables"))).then(
                ServiceFixture.service("ns", "svc-aaaa").clusterIP("172.30.0.1").port("http", 80, "TCP", 0).observed(),
                ServiceFixture.service("ns", "svc-bbbb").clusterIP("172.30.0.2").port("http", 80, "TCP", 0).observed(),
                EndpointSliceFixture.slice("ns", "sl-aaaa", "svc-aaaa").port("http", 8080, "TCP").endpoint("10.0.0.1").observed(),
                EndpointSliceFixture.slice("ns", "sl-bbbb", "svc-aaaa").port("http", 8080, "TCP").endpoint("10.0.0.2").observed()));
        assertThat(FoldedState.fromSnapshot(s.toSnapshot())).isEqualTo(s);
        for (String[] twice : new String[][] {{"svc-bbbb", "svc-aaaa"}, {"sl-bbbb", "sl-aaaa"}}) {
            byte[] snap = renamed(s.toSnapshot(), twice[0], twice[1]);
            assertThatThrownBy(() -> FoldedState.fromSnapshot(snap)).as(twice[0]).isInstanceOf(SnapshotDecodeException.class)
                    .hasMessageContaining("duplicate keys");
        }
    }

    /** {@code snap} with every occurrence of {@code from} replaced by {@code to} (the same length) and the checksum made valid. */
    private static byte[] renamed(byte[] snap, String from, String to) {
        byte[] f = from.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] t = to.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] out = snap.clone();
        int found = 0;
        for (int i = 0; i + f.length <= out.length - 4; i++) {
            if (Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
                System.arraycopy(t, 0, out, i, t.length);
                found++;
            }
        }
        assertThat(found).as(from).isPositive();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(out, 0, out.length - 4);
        java.nio.ByteBuffer.wrap(out, out.length - 4, 4).putInt((int) crc.getValue());
        return out;
    }

    @Test
    void garbageIsRefusedWithATypedException() {
        byte[] snap = rich().toSnapshot();
        assertThatThrownBy(() -> FoldedState.fromSnapshot(new byte[0])).isInstanceOf(SnapshotDecodeException.class);
        assertThatThrownBy(() -> FoldedState.fromSnapshot(null)).isInstanceOf(SnapshotDecodeException.class);
        byte[] otherVersion = snap.clone();
        otherVersion[0] = 99;
        assertThatThrownBy(() -> FoldedState.fromSnapshot(otherVersion)).isInstanceOf(SnapshotDecodeException.class)
                .hasMessageContaining("version 99");
        assertThatThrownBy(() -> FoldedState.fromSnapshot(Arrays.copyOf(snap, snap.length - 7)))
                .isInstanceOf(SnapshotDecodeException.class);
        Random rnd = new Random(3);
        for (int i = 0; i < 200; i++) {
            byte[] flipped = snap.clone();
            flipped[1 + rnd.nextInt(flipped.length - 1)] ^= (byte) (1 << rnd.nextInt(8));
            assertThatThrownBy(() -> FoldedState.fromSnapshot(flipped)).as("flip %d", i).isInstanceOf(SnapshotDecodeException.class);
            byte[] random = new byte[rnd.nextInt(200)];
            rnd.nextBytes(random);
            if (random.length > 0) {
                random[0] = SnapshotCodec.VERSION;
            }
            assertThatThrownBy(() -> FoldedState.fromSnapshot(random)).as("random %d", i).isInstanceOf(SnapshotDecodeException.class);
        }
    }
}
