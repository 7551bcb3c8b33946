package io.kproxy.netlink;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ipset's nfnetlink messages (subsystem {@code NFNL_SUBSYS_IPSET}, 6;
 * include/uapi/linux/netfilter/ipset/ip_set.h, {@code net/netfilter/ipset/ip_set_core.c}):
 * {@code nlmsghdr}, {@code nfgenmsg}, then {@code IPSET_ATTR_PROTOCOL} first and the command's
 * attributes. Member data sit in a nested {@code IPSET_ATTR_DATA}; addresses, ports and 32-bit
 * values are in network order and must carry {@code NLA_F_NET_BYTEORDER}, which the kernel
 * checks ({@code ip_set_attr_netorder}). No {@code NLM_F_EXCL}: creating what exists, adding a
 * member that is there or deleting one that is not is a no-op, as {@code ipset -exist} does
 * ({@code flag_exist}). Pure.
 */
final class IpsetEncoding {

    static final int SUBSYS = 6;
    /** {@code IPSET_PROTOCOL_MIN}: every kernel since the protocol's introduction accepts it. */
    static final int PROTOCOL = 6;
    static final int NLA_F_NET_BYTEORDER = 0x4000;
    /** The size of {@code struct nfgenmsg}, the header after {@code nlmsghdr}. */
    static final int NFGENMSG = 4;

    static final int CMD_CREATE = 2;
    static final int CMD_DESTROY = 3;
    static final int CMD_FLUSH = 4;
    static final int CMD_SWAP = 6;
    static final int CMD_LIST = 7;
    static final int CMD_ADD = 9;
    static final int CMD_DEL = 10;
    static final int CMD_HEADER = 12;
    static final int CMD_TYPE = 13;

    static final int ATTR_PROTOCOL = 1;
    static final int ATTR_SETNAME = 2;
    static final int ATTR_TYPENAME = 3;
    static final int ATTR_SETNAME2 = 3;
    static final int ATTR_REVISION = 4;
    static final int ATTR_FAMILY = 5;
    static final int ATTR_DATA = 7;
    static final int ATTR_ADT = 8;

    private static final int ATTR_IP = 1;
    private static final int ATTR_CIDR = 3;
    private static final int ATTR_PORT = 4;
    private static final int ATTR_PORT_TO = 5;
    private static final int ATTR_PROTO = 7;
    private static final int ATTR_HASHSIZE = 18;
    private static final int ATTR_MAXELEM = 19;
    private static final int ATTR_IP2 = 20;
    private static final int ATTR_CIDR2 = 21;
    private static final int ATTR_IPADDR_IPV4 = 1;
    private static final int ATTR_IPADDR_IPV6 = 2;

    static final int NFPROTO_UNSPEC = 0;
    static final int NFPROTO_IPV4 = 2;
    static final int NFPROTO_IPV6 = 10;

    private IpsetEncoding() {
    }

    static int family(IpsetSpec s) {
        return s.type() == IpsetType.BITMAP_PORT ? NFPROTO_UNSPEC : s.ipv6() ? NFPROTO_IPV6 : NFPROTO_IPV4;
    }

    private static int begin(NlMessages m, int cmd) {
        int s = m.begin(SUBSYS << 8 | cmd, 0);
        nfgenmsg(m.writer());
        m.writer().u8(ATTR_PROTOCOL, PROTOCOL);
        return s;
    }

    /** {@code nfgenmsg} as ipset writes it: AF_INET, version 0, resource id 0 (the kernel ignores them for ipset). */
    private static void nfgenmsg(NlWriter w) {
        w.putBytes(new byte[] {NFPROTO_IPV4, 0, 0, 0});
    }

    /** Every operation as one message, in order; {@code revisions} holds the revision to create each type with. */
    static NlMessages encode(List<IpsetOp> ops, Map<String, Integer> revisions) {
        NlMessages m = new NlMessages(Math.max(256, ops.size() * 80), i -> describe(ops.get(i)));
        for (IpsetOp op : ops) {
            switch (op) {
                case IpsetOp.Create c -> create(m, c.spec(), revisions.get(revisionKey(c.spec())));
                case IpsetOp.Destroy d -> named(m, CMD_DESTROY, d.set());
                case IpsetOp.Flush f -> named(m, CMD_FLUSH, f.set());
                case IpsetOp.Swap s -> {
                    int at = begin(m, CMD_SWAP);
                    m.writer().string(ATTR_SETNAME, s.set());
                    m.writer().string(ATTR_SETNAME2, s.other());
                    m.end(at);
                }
                case IpsetOp.Add a -> member(m, CMD_ADD, a.set(), a.entry());
                case IpsetOp.Delete d -> member(m, CMD_DEL, d.set(), d.entry());
            }
        }
        return m;
    }

    /** The operation as errors name it, in ipset's words: {@code ADD KUBE-CLUSTER-IP 10.96.0.10,tcp:80}. */
    static String describe(IpsetOp op) {
        return switch (op) {
            case IpsetOp.Create c -> "CREATE " + c.spec().name() + " " + c.spec().type().kernelName();
            case IpsetOp.Destroy d -> "DESTROY " + d.set();
            case IpsetOp.Flush f -> "FLUSH " + f.set();
            case IpsetOp.Swap s -> "SWAP " + s.set() + " " + s.other();
            case IpsetOp.Add a -> "ADD " + a.set() + " " + a.entry().text();
            case IpsetOp.Delete d -> "DEL " + d.set() + " " + d.entry().text();
        };
    }

    static String revisionKey(IpsetSpec s) {
        return s.type().kernelName() + "/" + family(s);
    }

    private static void named(NlMessages m, int cmd, String set) {
        int at = begin(m, cmd);
        m.writer().string(ATTR_SETNAME, set);
        m.end(at);
    }

    private static void create(NlMessages m, IpsetSpec s, Integer revision) {
        if (revision == null) {
            throw new IllegalArgumentException("no revision resolved for " + revisionKey(s));
        }
        NlWriter w = m.writer();
        int at = begin(m, CMD_CREATE);
        w.string(ATTR_SETNAME, s.name());
        w.string(ATTR_TYPENAME, s.type().kernelName());
        w.u8(ATTR_REVISION, revision);
        w.u8(ATTR_FAMILY, family(s));
        int data = w.beginNest(ATTR_DATA);
        if (s.type() == IpsetType.BITMAP_PORT) {
            w.u16Be(ATTR_PORT | NLA_F_NET_BYTEORDER, s.portFrom());
            w.u16Be(ATTR_PORT_TO | NLA_F_NET_BYTEORDER, s.portTo());
        } else {
            if (s.hashSize() > 0) {
                w.u32Be(ATTR_HASHSIZE | NLA_F_NET_BYTEORDER, s.hashSize());
            }
            if (s.maxElements() > 0) {
                w.u32Be(ATTR_MAXELEM | NLA_F_NET_BYTEORDER, s.maxElements());
            }
        }
        w.endNest(data);
        m.end(at);
    }

    private static void member(NlMessages m, int cmd, String set, IpsetEntry e) {
        NlWriter w = m.writer();
        int at = begin(m, cmd);
        w.string(ATTR_SETNAME, set);
        int data = w.beginNest(ATTR_DATA);
        switch (e) {
            case IpsetEntry.Ip ip -> ip(w, ATTR_IP, ip.ip());
            case IpsetEntry.IpPort ip -> {
                ip(w, ATTR_IP, ip.ip());
                w.u16Be(ATTR_PORT | NLA_F_NET_BYTEORDER, ip.port());
                w.u8(ATTR_PROTO, ip.protocol());
            }
            case IpsetEntry.IpPortIp ip -> {
                ip(w, ATTR_IP, ip.ip());
                w.u16Be(ATTR_PORT | NLA_F_NET_BYTEORDER, ip.port());
                w.u8(ATTR_PROTO, ip.protocol());
                ip(w, ATTR_IP2, ip.ip2());
            }
            case IpsetEntry.IpPortNet ip -> {
                ip(w, ATTR_IP, ip.ip());
                w.u16Be(ATTR_PORT | NLA_F_NET_BYTEORDER, ip.port());
                w.u8(ATTR_PROTO, ip.protocol());
                ip(w, ATTR_IP2, ip.net());
                w.u8(ATTR_CIDR2, ip.cidr());
            }
            case IpsetEntry.Net n -> {
                ip(w, ATTR_IP, n.net());
                w.u8(ATTR_CIDR, n.cidr());
            }
            case IpsetEntry.Port p -> w.u16Be(ATTR_PORT | NLA_F_NET_BYTEORDER, p.port());
        }
        w.endNest(data);
        m.end(at);
    }

    /** A nested address: {@code IPSET_ATTR_IPADDR_IPV4} or {@code _IPV6}, in network order and flagged so. */
    private static void ip(NlWriter w, int type, InetAddress a) {
        int n = w.beginNest(type);
        w.attr((a instanceof Inet4Address ? ATTR_IPADDR_IPV4 : ATTR_IPADDR_IPV6) | NLA_F_NET_BYTEORDER, a.getAddress());
        w.endNest(n);
    }

    /** {@code IPSET_CMD_TYPE}: asks which revisions of {@code type} the kernel has for {@code family}. */
    static NlWriter typeRequest(String type, int family) {
        NlWriter w = new NlWriter(64);
        int at = w.beginHeader(SUBSYS << 8 | CMD_TYPE, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_ACK, 0);
        nfgenmsg(w);
        w.u8(ATTR_PROTOCOL, PROTOCOL);
        w.string(ATTR_TYPENAME, type);
        w.u8(ATTR_FAMILY, family);
        w.endMessage(at);
        return w;
    }

    /** {@code IPSET_CMD_HEADER}: the named set's type, family and revision, without its members (ENOENT: no such set). */
    static NlWriter headerRequest(String set) {
        NlWriter w = new NlWriter(64);
        int at = w.beginHeader(SUBSYS << 8 | CMD_HEADER, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_ACK, 0);
        nfgenmsg(w);
        w.u8(ATTR_PROTOCOL, PROTOCOL);
        w.string(ATTR_SETNAME, set);
        w.endMessage(at);
        return w;
    }

    /** {@code IPSET_CMD_LIST} dump, of one set or (name empty) of all. */
    static NlWriter listRequest(String set) {
        NlWriter w = new NlWriter(64);
        int at = w.beginHeader(SUBSYS << 8 | CMD_LIST, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_DUMP, 0);
        nfgenmsg(w);
        w.u8(ATTR_PROTOCOL, PROTOCOL);
        if (!set.isEmpty()) {
            w.string(ATTR_SETNAME, set);
        }
        w.endMessage(at);
        return w;
    }

    /** The members in one list reply's {@code IPSET_ATTR_ADT}, shaped by the set's type. */
    static List<IpsetEntry> entries(IpsetType type, NlAttrs message) {
        List<IpsetEntry> out = new ArrayList<>();
        for (NlAttrs d : message.nested(ATTR_ADT).all(ATTR_DATA)) {
            out.add(switch (type) {
                case HASH_IP -> new IpsetEntry.Ip(ip(d.nested(ATTR_IP)));
                case HASH_IP_PORT -> new IpsetEntry.IpPort(ip(d.nested(ATTR_IP)), d.u8(ATTR_PROTO, 0), d.be16(ATTR_PORT, 0));
                case HASH_IP_PORT_IP -> new IpsetEntry.IpPortIp(ip(d.nested(ATTR_IP)), d.u8(ATTR_PROTO, 0), d.be16(ATTR_PORT, 0),
                        ip(d.nested(ATTR_IP2)));
                case HASH_IP_PORT_NET -> new IpsetEntry.IpPortNet(ip(d.nested(ATTR_IP)), d.u8(ATTR_PROTO, 0), d.be16(ATTR_PORT, 0),
                        ip(d.nested(ATTR_IP2)), d.u8(ATTR_CIDR2, 0));
                case HASH_NET -> new IpsetEntry.Net(ip(d.nested(ATTR_IP)), d.u8(ATTR_CIDR, 0));
                case BITMAP_PORT -> new IpsetEntry.Port(d.be16(ATTR_PORT, 0));
            });
        }
        return out;
    }

    private static InetAddress ip(NlAttrs nest) {
        byte[] raw = nest.has(ATTR_IPADDR_IPV4) ? nest.bytes(ATTR_IPADDR_IPV4) : nest.bytes(ATTR_IPADDR_IPV6);
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("ipset address of " + raw.length + " bytes", e);
        }
    }
}
