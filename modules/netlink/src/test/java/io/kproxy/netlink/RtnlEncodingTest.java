package io.kproxy.netlink;

import static io.kproxy.netlink.NlBytes.expected;
import static io.kproxy.netlink.NlBytes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * rtnetlink messages, byte for byte against include/uapi/linux/rtnetlink.h: nlmsghdr, then
 * struct ifinfomsg (family, pad, type u16, index s32, flags u32, change u32) or struct ifaddrmsg
 * (family, prefixlen, flags, scope u8, index u32), then IFLA_ / IFA_ attributes.
 */
class RtnlEncodingTest {

    @Test
    void newDummyLinkUp() {
        NlMessages m = RtnlEncoding.newLink("kube-ipvs0", "dummy");
        assertThat(hex(m)).isEqualTo(expected("""
                40000000 1000 0104 00000000 00000000
                00 00 0000 00000000 01000000 01000000
                0f00 0300 6b7562652d69707673300000
                1000 1280 0a00 0100 64756d6d7900 0000"""));
        assertThat(m.describe(0)).isEqualTo("NEWLINK kube-ipvs0 type dummy");
    }

    @Test
    void addressesAreReplacedOrDeletedByIndex() throws Exception {
        NlMessages add = RtnlEncoding.addresses(true, 7, "kube-ipvs0", List.of(LinkAddress.host(InetAddress.getByName("10.96.0.10"))));
        NlMessages del = RtnlEncoding.addresses(false, 7, "kube-ipvs0", List.of(LinkAddress.host(InetAddress.getByName("fd00::a"))));
        assertThat(hex(add) + hex(del)).isEqualTo(expected("""
                28000000 1400 0105 00000000 00000000
                02 20 00 00 07000000
                0800 0200 0a60000a
                0800 0100 0a60000a
                40000000 1500 0100 00000000 00000000
                0a 80 02 00 07000000
                1400 0200 fd00000000000000000000000000000a
                1400 0100 fd00000000000000000000000000000a"""));
        assertThat(del.describe(0)).isEqualTo("DELADDR fd00:0:0:0:0:0:0:a/128 dev kube-ipvs0");
    }

    @Test
    void lookupsAndDeletion() {
        assertThat(hex(RtnlEncoding.getLink("kube-ipvs0"))).isEqualTo(expected("""
                30000000 1200 0500 00000000 00000000
                00 00 0000 00000000 00000000 00000000
                0f00 0300 6b7562652d69707673300000"""));
        NlMessages m = RtnlEncoding.delLink("kube-ipvs0");
        assertThat(m.dump(RtnlEncoding.IFINFOMSG)).isEqualTo("type=17 flags=1 fam=0 3=6b7562652d6970767330" + "00\n");
        assertThat(hex(RtnlEncoding.getAddresses())).isEqualTo(expected("18000000 1600 0103 00000000 00000000 00 00 00 00 00000000"));
        // One link's addresses (honoured by a socket with strict checking), and every link.
        assertThat(hex(RtnlEncoding.getAddresses(7))).isEqualTo(expected("18000000 1600 0103 00000000 00000000 00 00 00 00 07000000"));
        assertThat(hex(RtnlEncoding.getLinks())).isEqualTo(expected("20000000 1200 0103 00000000 00000000 00 00 0000 00000000 00000000 00000000"));
        assertThatThrownBy(() -> new LinkAddress(InetAddress.getByName("10.0.0.1"), 33)).isInstanceOf(IllegalArgumentException.class);
    }
}
