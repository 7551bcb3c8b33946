package io.kproxy.netlink;

import static io.kproxy.netlink.NlBytes.expected;
import static io.kproxy.netlink.NlBytes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ipset nfnetlink messages, byte for byte against include/uapi/linux/netfilter/ipset/ip_set.h:
 * nlmsghdr (type = NFNL_SUBSYS_IPSET << 8 | command), nfgenmsg, PROTOCOL u8 first, then the
 * command's attributes; member data nested in DATA, addresses nested in IP/IP2, network-order
 * values flagged NLA_F_NET_BYTEORDER (0x4000).
 */
class IpsetEncodingTest {

    @Test
    void addIsLaidOutAsTheKernelParsesIt() throws Exception {
        NlMessages m = IpsetEncoding.encode(List.of(new IpsetOp.Add("KUBE-CLUSTER-IP", new IpsetEntry.IpPort(InetAddress.getByName("10.96.0.10"), 6, 80))),
                Map.of());
        assertThat(hex(m)).isEqualTo(expected("""
                50000000 0906 0100 00000000 00000000
                02 00 0000
                0500 0100 06 000000
                1400 0200 4b5542452d434c55535445522d495000
                2000 0780
                0c00 0180 0800 0140 0a60000a
                0600 0440 0050 0000
                0500 0700 06 000000"""));
        assertThat(m.describe(0)).isEqualTo("ADD KUBE-CLUSTER-IP 10.96.0.10,tcp:80");
    }

    @Test
    void createCarriesTypeRevisionFamilyAndSizes() {
        Map<String, Integer> rev = Map.of("hash:ip,port/2", 6, "bitmap:port/0", 3);
        NlMessages m = IpsetEncoding.encode(List.of(new IpsetOp.Create(IpsetSpec.hash("KUBE-CLUSTER-IP", IpsetType.HASH_IP_PORT, false)),
                new IpsetOp.Create(IpsetSpec.ports("KUBE-NODE-PORT-TCP"))), rev);
        assertThat(m.dump(4)).isEqualTo("""
                type=1538 flags=1 fam=2 1=06 2=4b5542452d434c55535445522d495000 3=686173683a69702c706f727400 4=06 5=02 7{18=00000400 19=00010000}
                type=1538 flags=1 fam=2 1=06 2=4b5542452d4e4f44452d504f52542d54435000 3=6269746d61703a706f727400 4=03 5=00 7{4=0000 5=ffff}
                """);
        assertThatThrownBy(() -> IpsetEncoding.encode(List.of(new IpsetOp.Create(IpsetSpec.hash("X", IpsetType.HASH_NET, true))), rev))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyMemberShape() throws Exception {
        InetAddress vip = InetAddress.getByName("10.96.0.10");
        InetAddress pod = InetAddress.getByName("10.0.1.11");
        NlMessages m = IpsetEncoding.encode(List.of(
                new IpsetOp.Add("L", new IpsetEntry.IpPortIp(pod, 17, 53, pod)),
                new IpsetOp.Delete("S", new IpsetEntry.IpPortNet(vip, 6, 80, InetAddress.getByName("203.0.113.0"), 24)),
                new IpsetOp.Add("N", new IpsetEntry.Net(InetAddress.getByName("fd00::"), 64)),
                new IpsetOp.Add("P", new IpsetEntry.Port(30080)),
                new IpsetOp.Add("I", new IpsetEntry.Ip(vip)),
                new IpsetOp.Swap("A", "B"), new IpsetOp.Flush("A"), new IpsetOp.Destroy("B")), Map.of());
        assertThat(m.dump(4)).isEqualTo("""
                type=1545 flags=1 fam=2 1=06 2=4c00 7{1{1=0a00010b} 4=0035 7=11 20{1=0a00010b}}
                type=1546 flags=1 fam=2 1=06 2=5300 7{1{1=0a60000a} 4=0050 7=06 20{1=cb007100} 21=18}
                type=1545 flags=1 fam=2 1=06 2=4e00 7{1{2=fd000000000000000000000000000000} 3=40}
                type=1545 flags=1 fam=2 1=06 2=5000 7{4=7580}
                type=1545 flags=1 fam=2 1=06 2=4900 7{1{1=0a60000a}}
                type=1542 flags=1 fam=2 1=06 2=4100 3=4200
                type=1540 flags=1 fam=2 1=06 2=4100
                type=1539 flags=1 fam=2 1=06 2=4200
                """);
        assertThat(List.of(m.describe(0), m.describe(1), m.describe(2), m.describe(3)))
                .containsExactly("ADD L 10.0.1.11,udp:53,10.0.1.11", "DEL S 10.96.0.10,tcp:80,203.0.113.0/24", "ADD N fd00:0:0:0:0:0:0:0/64", "ADD P 30080");
    }

    @Test
    void listRepliesDecodeIntoMembers() throws Exception {
        // A list reply's ADT nest as the kernel writes it: DATA nests of the members.
        NlMessages m = IpsetEncoding.encode(List.of(new IpsetOp.Add("X", new IpsetEntry.IpPort(InetAddress.getByName("10.96.0.10"), 6, 80))), Map.of());
        byte[] add = m.bytes();
        NlAttrs data = NlAttrs.parse(add, 20, add.length).nested(IpsetEncoding.ATTR_DATA);
        assertThat(data.has(1)).isTrue();
        NlWriter w = new NlWriter(128);
        int adt = w.beginNest(IpsetEncoding.ATTR_ADT);
        int d = w.beginNest(IpsetEncoding.ATTR_DATA);
        int start = 20 + 8 + 8 + 4; // nfgenmsg, PROTOCOL, SETNAME "X", DATA header
        w.putBytes(Arrays.copyOfRange(add, start, add.length));
        w.endNest(d);
        w.endNest(adt);
        byte[] reply = w.bytes();
        assertThat(IpsetEncoding.entries(IpsetType.HASH_IP_PORT, NlAttrs.parse(reply, 0, reply.length)))
                .containsExactly(new IpsetEntry.IpPort(InetAddress.getByName("10.96.0.10"), 6, 80));
    }

    @Test
    void valuesAreValidated() throws Exception {
        InetAddress v4 = InetAddress.getByName("10.0.0.1");
        InetAddress v6 = InetAddress.getByName("fd00::1");
        assertThatThrownBy(() -> new IpsetEntry.IpPortIp(v4, 6, 80, v6)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpsetEntry.Net(v4, 33)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpsetEntry.IpPort(v4, 0, 80)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpsetOp.Destroy("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpsetSpec.hash("A-NAME-LONGER-THAN-THIRTY-ONE-CHARS", IpsetType.HASH_IP, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpsetSpec("P", IpsetType.BITMAP_PORT, false, 0, 0, 10, 5)).isInstanceOf(IllegalArgumentException.class);
    }
}
