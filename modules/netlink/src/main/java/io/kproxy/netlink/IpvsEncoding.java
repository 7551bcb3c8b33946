package io.kproxy.netlink;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * IPVS generic netlink messages, as include/uapi/linux/ip_vs.h lays them out and
 * {@code net/netfilter/ipvs/ip_vs_ctl.c} parses them (the attribute order is ipvsadm's
 * libipvs): {@code nlmsghdr}, {@code genlmsghdr} (command, version 1), then a nested
 * {@code IPVS_CMD_ATTR_SERVICE} (and {@code IPVS_CMD_ATTR_DEST}). Integers in host order, ports
 * in network order, addresses as the 16-byte {@code union nf_inet_addr}. Pure.
 */
final class IpvsEncoding {

    static final String FAMILY = "IPVS";
    static final int VERSION = 1;

    static final int CMD_NEW_SERVICE = 1;
    static final int CMD_SET_SERVICE = 2;
    static final int CMD_DEL_SERVICE = 3;
    static final int CMD_GET_SERVICE = 4;
    static final int CMD_NEW_DEST = 5;
    static final int CMD_SET_DEST = 6;
    static final int CMD_DEL_DEST = 7;
    static final int CMD_GET_DEST = 8;
    static final int CMD_SET_CONFIG = 12;
    static final int CMD_GET_CONFIG = 13;
    static final int CMD_FLUSH = 17;

    static final int CMD_ATTR_SERVICE = 1;
    static final int CMD_ATTR_DEST = 2;
    static final int CMD_ATTR_TIMEOUT_TCP = 4;
    static final int CMD_ATTR_TIMEOUT_TCP_FIN = 5;
    static final int CMD_ATTR_TIMEOUT_UDP = 6;

    private static final int SVC_AF = 1;
    private static final int SVC_PROTOCOL = 2;
    private static final int SVC_ADDR = 3;
    private static final int SVC_PORT = 4;
    private static final int SVC_FWMARK = 5;
    private static final int SVC_SCHED_NAME = 6;
    private static final int SVC_FLAGS = 7;
    private static final int SVC_TIMEOUT = 8;
    private static final int SVC_NETMASK = 9;

    private static final int DEST_ADDR = 1;
    private static final int DEST_PORT = 2;
    private static final int DEST_FWD_METHOD = 3;
    private static final int DEST_WEIGHT = 4;
    private static final int DEST_U_THRESH = 5;
    private static final int DEST_L_THRESH = 6;
    private static final int DEST_ACTIVE_CONNS = 7;
    private static final int DEST_INACT_CONNS = 8;
    private static final int DEST_ADDR_FAMILY = 11;
    /** {@code IP_VS_CONN_F_FWD_MASK}: the forwarding method's bits of the reported connection flags. */
    private static final int FWD_MASK = 0x7;

    private IpvsEncoding() {
    }

    /** Every operation as one message, in order, for the family id the controller gave. */
    static NlMessages encode(int familyId, List<IpvsOp> ops) {
        NlMessages m = new NlMessages(Math.max(256, ops.size() * 96), i -> describe(ops.get(i)));
        for (IpvsOp op : ops) {
            switch (op) {
                case IpvsOp.AddService a -> service(m, familyId, CMD_NEW_SERVICE, a.service(), true);
                case IpvsOp.UpdateService u -> service(m, familyId, CMD_SET_SERVICE, u.service(), true);
                case IpvsOp.DeleteService d -> service(m, familyId, CMD_DEL_SERVICE, d.service(), false);
                case IpvsOp.AddDestination a -> dest(m, familyId, CMD_NEW_DEST, a.service(), a.destination(), true);
                case IpvsOp.UpdateDestination u -> dest(m, familyId, CMD_SET_DEST, u.service(), u.destination(), true);
                case IpvsOp.DeleteDestination d -> dest(m, familyId, CMD_DEL_DEST, d.service(), d.destination(), false);
            }
        }
        return m;
    }

    /** The operation as errors name it: {@code NEW_DEST TCP 10.96.0.10:80 -> 10.0.1.11:8080}. */
    static String describe(IpvsOp op) {
        return switch (op) {
            case IpvsOp.AddService a -> "NEW_SERVICE " + a.service().key();
            case IpvsOp.UpdateService u -> "SET_SERVICE " + u.service().key();
            case IpvsOp.DeleteService d -> "DEL_SERVICE " + d.service().key();
            case IpvsOp.AddDestination a -> "NEW_DEST " + a.service().key() + " -> " + a.destination().key();
            case IpvsOp.UpdateDestination u -> "SET_DEST " + u.service().key() + " -> " + u.destination().key();
            case IpvsOp.DeleteDestination d -> "DEL_DEST " + d.service().key() + " -> " + d.destination().key();
        };
    }

    private static void service(NlMessages m, int familyId, int cmd, IpvsService s, boolean full) {
        int start = m.begin(familyId, 0);
        GenlFamily.header(m.writer(), cmd, VERSION);
        serviceNest(m.writer(), s, full);
        m.end(start);
    }

    private static void dest(NlMessages m, int familyId, int cmd, IpvsService s, IpvsDestination d, boolean full) {
        int start = m.begin(familyId, 0);
        GenlFamily.header(m.writer(), cmd, VERSION);
        serviceNest(m.writer(), s, false);
        int n = m.writer().beginNest(CMD_ATTR_DEST);
        NlWriter w = m.writer();
        w.attr(DEST_ADDR, addr16(d.address()));
        w.u16Be(DEST_PORT, d.port());
        if (full) {
            w.u32Host(DEST_FWD_METHOD, d.forward().code());
            w.u32Host(DEST_WEIGHT, d.weight());
            w.u32Host(DEST_U_THRESH, d.upperThreshold());
            w.u32Host(DEST_L_THRESH, d.lowerThreshold());
        }
        w.u16Host(DEST_ADDR_FAMILY, d.address() instanceof Inet4Address ? 2 : 10);
        w.endNest(n);
        m.end(start);
    }

    /** The {@code IPVS_CMD_ATTR_SERVICE} nest: the identity, and with {@code full} the scheduler, flags, timeout and netmask. */
    static void serviceNest(NlWriter w, IpvsService s, boolean full) {
        int n = w.beginNest(CMD_ATTR_SERVICE);
        w.u16Host(SVC_AF, s.af());
        if (s.fwmark() != 0) {
            w.u32Host(SVC_FWMARK, s.fwmark());
        } else {
            w.u16Host(SVC_PROTOCOL, s.protocol().number());
            w.attr(SVC_ADDR, addr16(s.address()));
            w.u16Be(SVC_PORT, s.port());
        }
        if (full) {
            w.string(SVC_SCHED_NAME, s.scheduler());
            byte[] flags = new byte[8];
            ByteBuffer.wrap(flags).order(ByteOrder.nativeOrder()).putInt(s.flags()).putInt(-1); // struct ip_vs_flags {flags, mask}
            w.attr(SVC_FLAGS, flags);
            w.u32Host(SVC_TIMEOUT, s.timeoutSeconds());
            w.u32Host(SVC_NETMASK, netmask(s));
        }
        w.endNest(n);
    }

    /**
     * The netmask attribute as ipvsadm sends it: for IPv4 the mask itself, in network order (the
     * kernel reads it with {@code nla_get_be32}); for IPv6 the prefix length, in host order.
     */
    private static int netmask(IpvsService s) {
        if (s.af() == 10) {
            return s.netmaskBits();
        }
        int mask = s.netmaskBits() == 0 ? 0 : -1 << (32 - s.netmaskBits());
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? Integer.reverseBytes(mask) : mask;
    }

    private static int netmaskBits(int af, int raw) {
        if (af == 10) {
            return raw;
        }
        int mask = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? Integer.reverseBytes(raw) : raw;
        return Integer.bitCount(mask);
    }

    static IpvsService decodeService(NlAttrs a) {
        int af = a.u16(SVC_AF, 2);
        byte[] flags = a.bytes(SVC_FLAGS);
        int f = flags.length >= 4 ? ByteBuffer.wrap(flags).order(ByteOrder.nativeOrder()).getInt(0) : 0;
        int fwmark = a.u32(SVC_FWMARK, 0);
        InetAddress address = fwmark != 0 && !a.has(SVC_ADDR) ? any(af) : address(a.bytes(SVC_ADDR), af);
        IpvsProtocol protocol = a.has(SVC_PROTOCOL) && a.u16(SVC_PROTOCOL, 0) != 0 ? IpvsProtocol.of(a.u16(SVC_PROTOCOL, 6)) : IpvsProtocol.TCP;
        return new IpvsService(address, protocol, a.be16(SVC_PORT, 0), fwmark, a.string(SVC_SCHED_NAME), f, a.u32(SVC_TIMEOUT, 0),
                netmaskBits(af, a.u32(SVC_NETMASK, af == 10 ? 128 : -1)));
    }

    static IpvsDestination decodeDestination(NlAttrs a, int serviceAf) {
        int af = a.u16(DEST_ADDR_FAMILY, serviceAf);
        return new IpvsDestination(address(a.bytes(DEST_ADDR), af), a.be16(DEST_PORT, 0), IpvsForward.of(a.u32(DEST_FWD_METHOD, 0) & FWD_MASK),
                a.u32(DEST_WEIGHT, 0), a.u32(DEST_U_THRESH, 0), a.u32(DEST_L_THRESH, 0), a.u32(DEST_ACTIVE_CONNS, 0), a.u32(DEST_INACT_CONNS, 0));
    }

    /** {@code IPVS_CMD_SET_CONFIG} with the three timeouts (top-level u32 attributes, as ipvsadm sends them). */
    static NlWriter setConfig(int familyId, IpvsTimeouts t) {
        NlWriter w = new NlWriter(64);
        int m = w.beginHeader(familyId, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_ACK, 0);
        GenlFamily.header(w, CMD_SET_CONFIG, VERSION);
        w.u32Host(CMD_ATTR_TIMEOUT_TCP, t.tcpSeconds());
        w.u32Host(CMD_ATTR_TIMEOUT_TCP_FIN, t.tcpFinSeconds());
        w.u32Host(CMD_ATTR_TIMEOUT_UDP, t.udpSeconds());
        w.endMessage(m);
        return w;
    }

    /** {@code union nf_inet_addr}: the IPv4 address in its first 4 bytes, or the IPv6 address. */
    static byte[] addr16(InetAddress a) {
        return Arrays.copyOf(a.getAddress(), 16);
    }

    private static InetAddress address(byte[] raw, int af) {
        try {
            return InetAddress.getByAddress(Arrays.copyOf(raw, af == 2 ? 4 : 16));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("address of " + raw.length + " bytes", e);
        }
    }

    private static InetAddress any(int af) {
        return address(new byte[16], af);
    }

    static String hostPort(InetAddress a, int port) {
        return (a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress()) + ":" + port;
    }
}
