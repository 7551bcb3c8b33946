package io.kproxy.netlink;

import static io.kproxy.netlink.NlBytes.expected;
import static io.kproxy.netlink.NlBytes.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * IPVS generic netlink messages, byte for byte against include/uapi/linux/ip_vs.h: nlmsghdr
 * (length, type = the family id, flags, seq, pid), genlmsghdr (cmd, version 1, reserved), the
 * service nest (AF u16, PROTOCOL u16, ADDR 16 bytes, PORT be16, SCHED_NAME, FLAGS {flags, mask},
 * TIMEOUT u32, NETMASK), the destination nest (ADDR, PORT be16, FWD_METHOD, WEIGHT, U_THRESH,
 * L_THRESH u32, ADDR_FAMILY u16). The family id 0x25 stands for whatever the controller answers.
 */
class IpvsEncodingTest {

    private static final int FAMILY = 0x25;

    private static IpvsService tcp80() throws Exception {
        return IpvsService.of(InetAddress.getByName("10.96.0.10"), IpvsProtocol.TCP, 80, "rr");
    }

    @Test
    void newServiceIsLaidOutAsTheKernelParsesIt() throws Exception {
        NlMessages m = IpvsEncoding.encode(FAMILY, List.of(new IpvsOp.AddService(tcp80())));
        assertThat(hex(m)).isEqualTo(expected("""
                68000000 2500 0100 00000000 00000000
                01 01 0000
                5400 0180
                0600 0100 0200 0000
                0600 0200 0600 0000
                1400 0300 0a60000a 000000000000000000000000
                0600 0400 0050 0000
                0700 0600 727200 00
                0c00 0700 00000000 ffffffff
                0800 0800 00000000
                0800 0900 ffffffff"""));
        assertThat(m.describe(0)).isEqualTo("NEW_SERVICE TCP 10.96.0.10:80");
    }

    @Test
    void newDestinationNamesItsServiceByIdentityOnly() throws Exception {
        IpvsDestination d = IpvsDestination.masquerade(InetAddress.getByName("10.0.1.11"), 8080, 1);
        NlMessages m = IpvsEncoding.encode(FAMILY, List.of(new IpvsOp.AddDestination(tcp80(), d)));
        assertThat(hex(m)).isEqualTo(expected("""
                8c000000 2500 0100 00000000 00000000
                05 01 0000
                3000 0180
                0600 0100 0200 0000
                0600 0200 0600 0000
                1400 0300 0a60000a 000000000000000000000000
                0600 0400 0050 0000
                4800 0280
                1400 0100 0a00010b 000000000000000000000000
                0600 0200 1f90 0000
                0800 0300 00000000
                0800 0400 01000000
                0800 0500 00000000
                0800 0600 00000000
                0600 0b00 0200 0000"""));
        assertThat(m.describe(0)).isEqualTo("NEW_DEST TCP 10.96.0.10:80 -> 10.0.1.11:8080");
    }

    @Test
    void deletionsCarryNoSchedulerOrWeight() throws Exception {
        IpvsDestination d = IpvsDestination.masquerade(InetAddress.getByName("10.0.1.11"), 8080, 1);
        NlMessages m = IpvsEncoding.encode(FAMILY, List.of(new IpvsOp.DeleteService(tcp80()), new IpvsOp.DeleteDestination(tcp80(), d)));
        assertThat(m.dump(GenlFamily.HEADER)).isEqualTo("""
                type=37 flags=1 fam=3 1{1=0200 2=0600 3=0a60000a000000000000000000000000 4=0050}
                type=37 flags=1 fam=7 1{1=0200 2=0600 3=0a60000a000000000000000000000000 4=0050} \
                2{1=0a00010b000000000000000000000000 2=1f90 11=0200}
                """);
    }

    @Test
    void persistenceNetmaskIsTheMaskForIpv4AndThePrefixLengthForIpv6() throws Exception {
        IpvsService v4 = new IpvsService(InetAddress.getByName("10.96.0.10"), IpvsProtocol.UDP, 53, 0, "sh", IpvsService.PERSISTENT | IpvsService.SCHED1,
                10800, 24);
        IpvsService v6 = IpvsService.of(InetAddress.getByName("fd00::a"), IpvsProtocol.SCTP, 5000, "mh").persistent(60);
        String dump = IpvsEncoding.encode(FAMILY, List.of(new IpvsOp.UpdateService(v4), new IpvsOp.AddService(v6))).dump(GenlFamily.HEADER);
        assertThat(dump).isEqualTo("""
                type=37 flags=1 fam=2 1{1=0200 2=1100 3=0a60000a000000000000000000000000 4=0035 6=736800 7=09000000ffffffff 8=302a0000 9=ffffff00}
                type=37 flags=1 fam=1 1{1=0a00 2=8400 3=fd00000000000000000000000000000a 4=1388 6=6d6800 7=01000000ffffffff 8=3c000000 9=80000000}
                """);
    }

    @Test
    void aServiceReadBackEqualsWhatWasWritten() throws Exception {
        IpvsService s = new IpvsService(InetAddress.getByName("fd00::a"), IpvsProtocol.UDP, 53, 0, "wrr", IpvsService.PERSISTENT, 300, 64);
        NlWriter w = new NlWriter(128);
        IpvsEncoding.serviceNest(w, s, true);
        byte[] bytes = w.bytes();
        NlAttrs nest = NlAttrs.parse(bytes, 0, bytes.length).nested(IpvsEncoding.CMD_ATTR_SERVICE);
        assertThat(IpvsEncoding.decodeService(nest)).isEqualTo(s);

        IpvsService fw = new IpvsService(InetAddress.getByName("0.0.0.0"), IpvsProtocol.TCP, 0, 7, "rr", 0, 0, 32);
        w = new NlWriter(128);
        IpvsEncoding.serviceNest(w, fw, true);
        bytes = w.bytes();
        assertThat(IpvsEncoding.decodeService(NlAttrs.parse(bytes, 0, bytes.length).nested(IpvsEncoding.CMD_ATTR_SERVICE))).isEqualTo(fw);
        assertThat(fw.key()).isEqualTo("FWM 7 IPv4");
    }

    @Test
    void controllerAndConfigRequests() {
        assertThat(hex(GenlFamily.request("IPVS"))).isEqualTo(expected("""
                20000000 1000 0500 00000000 00000000
                03 01 0000
                0900 0200 4950565300 000000"""));
        assertThat(hex(IpvsEncoding.setConfig(FAMILY, new IpvsTimeouts(900, 120, 300)))).isEqualTo(expected("""
                2c000000 2500 0500 00000000 00000000
                0c 01 0000
                0800 0400 84030000
                0800 0500 78000000
                0800 0600 2c010000"""));
    }

    @Test
    void valuesAreValidated() throws Exception {
        InetAddress a = InetAddress.getByName("10.96.0.10");
        assertThatThrownBy(() -> IpvsService.of(a, IpvsProtocol.TCP, 70000, "rr")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpvsService.of(a, IpvsProtocol.TCP, 80, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpvsService.of(a, IpvsProtocol.TCP, 80, "a-very-long-scheduler")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpvsService(a, IpvsProtocol.TCP, 80, 0, "rr", 0, 0, 33)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IpvsDestination.masquerade(a, 80, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpvsTimeouts(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IpvsOp.AddDestination(tcp80(), null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new IpvsService(a, IpvsProtocol.TCP, 80, 0, "rr", IpvsService.HASHED | IpvsService.ONEPACKET, 0, 32).flags())
                .isEqualTo(IpvsService.ONEPACKET);
    }
}
