package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.ipvs.spi.Forwarding;
import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.SetSpec;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.netlink.IpsetEntry;
import io.kproxy.netlink.IpsetSpec;
import io.kproxy.netlink.IpsetType;
import io.kproxy.netlink.IpvsDestination;
import io.kproxy.netlink.IpvsForward;
import io.kproxy.netlink.IpvsProtocol;
import io.kproxy.netlink.IpvsService;
import java.net.InetAddress;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The pure half of the kernel adapter: port values to netlink requests and back. */
class NetlinkMappingTest {

    private static InetAddress inet(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    @Test
    void virtualServersKeepOneClientAddressPerPersistenceEntryAndRoundTrip() {
        VirtualServer v4 = new VirtualServer(new VsKey(Protocol.TCP, IpAddress.parse("10.96.0.10"), 80), "rr", VirtualServer.PERSISTENT, 10800);
        IpvsService s = NetlinkMapping.service(v4);
        assertThat(s.netmaskBits()).as("encoded as the mask 0xffffffff").isEqualTo(32);
        assertThat(s.protocol()).isEqualTo(IpvsProtocol.TCP);
        assertThat(s.flags()).isEqualTo(IpvsService.PERSISTENT);
        assertThat(s.timeoutSeconds()).isEqualTo(10800);
        assertThat(NetlinkMapping.virtualServer(s)).contains(v4);

        VirtualServer v6 = new VirtualServer(new VsKey(Protocol.SCTP, IpAddress.parse("fd00:96::10"), 53), "mh", VirtualServer.SOURCE_HASH, 0);
        IpvsService s6 = NetlinkMapping.service(v6);
        assertThat(s6.netmaskBits()).isEqualTo(128);
        assertThat(s6.flags()).isEqualTo(IpvsService.SCHED2);
        assertThat(NetlinkMapping.virtualServer(s6)).contains(v6);
    }

    @Test
    void servicesKproxyNeverProgramsAreLeftOut() throws Exception {
        IpvsService fwmark = new IpvsService(inet("0.0.0.0"), IpvsProtocol.TCP, 0, 7, "rr", 0, 0, 32);
        assertThat(NetlinkMapping.virtualServer(fwmark)).isEmpty();
        assertThat(NetlinkMapping.virtualServer(IpvsService.of(inet("10.0.0.1"), IpvsProtocol.UDP, 0, "rr"))).isEmpty();
    }

    @Test
    void destinationsMapForwardingAndCounts() throws Exception {
        RealServer rs = RealServer.serving(IpAddress.parse("fd00:10::11"), 8080).withWeight(0);
        IpvsDestination d = NetlinkMapping.destination(rs);
        assertThat(d.forward()).isEqualTo(IpvsForward.MASQUERADE);
        assertThat(d.weight()).isZero();
        var listed = NetlinkMapping.destination(new IpvsDestination(inet("10.0.1.11"), 8080, IpvsForward.LOCAL, 1, 0, 0, 3, 4));
        assertThat(listed.server()).isEqualTo(RealServer.serving(IpAddress.parse("10.0.1.11"), 8080));
        assertThat(listed.activeConnections()).isEqualTo(3);
        assertThat(listed.inactiveConnections()).isEqualTo(4);
        assertThat(NetlinkMapping.destination(IpvsDestination.masquerade(inet("10.0.1.11"), 1, 1).withWeight(1)).server().forwarding())
                .isEqualTo(Forwarding.MASQUERADE);
        assertThat(NetlinkMapping.destination(new IpvsDestination(inet("10.0.1.11"), 1, IpvsForward.DIRECT_ROUTE, 1, 0, 0, 0, 0)).server()
                .forwarding()).isEqualTo(Forwarding.ROUTE);
    }

    /** What the backend writes is what a listing gives back, byte for byte (else every sync re-adds it). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "KUBE-CLUSTER-IP|10.96.0.10,tcp:80",
        "KUBE-6-CLUSTER-IP|fd00:96::10,udp:53",
        "KUBE-LOOP-BACK|10.0.1.11,tcp:8080,10.0.1.11",
        "KUBE-6-LOOP-BACK|fd00:10:0:1::11,sctp:8080,fd00:10:0:1::11",
        "KUBE-LOAD-BALANCER-SOURCE-CIDR|203.0.113.17,tcp:80,203.0.113.0/25",
        "KUBE-LOAD-BALANCER-SOURCE-CIDR|203.0.113.17,tcp:80,203.0.113.2/32",
        "KUBE-6-LOAD-BALANCER-SOURCE-CID|fd00:203::17,tcp:80,fd00:203::/121",
        "KUBE-NODE-PORT-TCP|30010",
        "KUBE-6-NODE-PORT-LOCAL-SCTP-HAS|fd00:192::2,sctp:30010",
        "KUBE-IPVS-IPS|10.96.0.10",
        "KUBE-6-IPVS-IPS|fd00:96::10"})
    void membersRoundTripInTheBackendsSpelling(String set, String text) {
        IpsetType t = NetlinkMapping.typeOf(set).orElseThrow();
        IpsetEntry e = NetlinkMapping.entry(t, text);
        assertThat(e.type()).isEqualTo(t);
        assertThat(NetlinkMapping.text(e)).isEqualTo(text);
    }

    @Test
    void ipv6MembersAreNotSpelledTheJdkWay() throws Exception {
        // InetAddress prints fd00:96:0:0:0:0:0:10; the backend writes RFC 5952 text.
        assertThat(NetlinkMapping.text(new IpsetEntry.IpPort(inet("fd00:96::10"), 6, 80))).isEqualTo("fd00:96::10,tcp:80");
    }

    @Test
    void setsAreCreatedWithUpstreamsSizes() {
        assertThat(NetlinkMapping.set(new SetSpec("KUBE-6-CLUSTER-IP", "hash:ip,port", IpFamily.IPV6, "c")))
                .isEqualTo(IpsetSpec.hash("KUBE-6-CLUSTER-IP", IpsetType.HASH_IP_PORT, true));
        assertThat(NetlinkMapping.set(new SetSpec("KUBE-NODE-PORT-UDP", "bitmap:port", IpFamily.IPV4, "c")))
                .isEqualTo(IpsetSpec.ports("KUBE-NODE-PORT-UDP"));
        assertThat(NetlinkMapping.typeOf("KUBE-SOMETHING-ELSE")).isEqualTo(Optional.empty());
    }

    @Test
    void malformedMembersAreRefused() {
        assertThatThrownBy(() -> NetlinkMapping.entry(IpsetType.HASH_IP_PORT, "10.0.0.1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NetlinkMapping.entry(IpsetType.HASH_IP_PORT_NET, "10.0.0.1,tcp:80,10.0.0.0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NetlinkMapping.entry(IpsetType.HASH_IP_PORT, "10.0.0.1,icmp:80")).isInstanceOf(IllegalArgumentException.class);
    }
}
