package io.kproxy.netlink;

import java.net.Inet4Address;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * rtnetlink link and address messages (include/uapi/linux/rtnetlink.h, if_link.h, if_addr.h):
 * {@code nlmsghdr}, then {@code struct ifinfomsg} (16 bytes) or {@code struct ifaddrmsg}
 * (8 bytes), then attributes in host order. Pure.
 */
final class RtnlEncoding {

    static final int RTM_NEWLINK = 16;
    static final int RTM_DELLINK = 17;
    static final int RTM_GETLINK = 18;
    static final int RTM_NEWADDR = 20;
    static final int RTM_DELADDR = 21;
    static final int RTM_GETADDR = 22;
    static final int IFINFOMSG = 16;
    static final int IFADDRMSG = 8;
    static final int NLM_F_REPLACE = 0x100;
    static final int NLM_F_CREATE = 0x400;
    static final int IFF_UP = 0x1;
    private static final int IFLA_IFNAME = 3;
    private static final int IFLA_LINKINFO = 18;
    private static final int IFLA_INFO_KIND = 1;
    static final int IFA_ADDRESS = 1;
    static final int IFA_LOCAL = 2;
    /** No duplicate address detection: the address is the node's own, on a device that answers nothing. */
    private static final int IFA_F_NODAD = 0x02;

    private RtnlEncoding() {
    }

    /** {@code struct ifinfomsg}: family, pad, type, index, flags, change. */
    static void ifinfomsg(NlWriter w, int index, int flags, int change) {
        ByteBuffer b = ByteBuffer.allocate(IFINFOMSG).order(ByteOrder.nativeOrder());
        b.put((byte) 0).put((byte) 0).putShort((short) 0).putInt(index).putInt(flags).putInt(change);
        w.putBytes(b.array());
    }

    /** {@code struct ifaddrmsg}: family, prefix length, flags, scope (universe), index. */
    static void ifaddrmsg(NlWriter w, int family, int prefix, int flags, int index) {
        ByteBuffer b = ByteBuffer.allocate(IFADDRMSG).order(ByteOrder.nativeOrder());
        b.put((byte) family).put((byte) prefix).put((byte) flags).put((byte) 0).putInt(index);
        w.putBytes(b.array());
    }

    /** Creates the link {@code name} of {@code kind}, up, or updates it when it exists (no {@code NLM_F_EXCL}: {@code ip link add … up} made idempotent). */
    static NlMessages newLink(String name, String kind) {
        NlMessages m = new NlMessages(128, i -> "NEWLINK " + name + " type " + kind);
        int s = m.begin(RTM_NEWLINK, NLM_F_CREATE);
        ifinfomsg(m.writer(), 0, IFF_UP, IFF_UP);
        m.writer().string(IFLA_IFNAME, name);
        int info = m.writer().beginNest(IFLA_LINKINFO);
        m.writer().string(IFLA_INFO_KIND, kind);
        m.writer().endNest(info);
        m.end(s);
        return m;
    }

    static NlMessages delLink(String name) {
        NlMessages m = new NlMessages(64, i -> "DELLINK " + name);
        int s = m.begin(RTM_DELLINK, 0);
        ifinfomsg(m.writer(), 0, 0, 0);
        m.writer().string(IFLA_IFNAME, name);
        m.end(s);
        return m;
    }

    /** {@code RTM_GETLINK} by name: one answer, the link with its index. */
    static NlWriter getLink(String name) {
        NlWriter w = new NlWriter(64);
        int s = w.beginHeader(RTM_GETLINK, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_ACK, 0);
        ifinfomsg(w, 0, 0, 0);
        w.string(IFLA_IFNAME, name);
        w.endMessage(s);
        return w;
    }

    /** Adds (replacing an equal one: idempotent) or deletes each address on the link with {@code index}, one message each. */
    static NlMessages addresses(boolean add, int index, String link, List<LinkAddress> addresses) {
        NlMessages m = new NlMessages(addresses.size() * 48, i -> (add ? "NEWADDR " : "DELADDR ") + addresses.get(i) + " dev " + link);
        for (LinkAddress a : addresses) {
            int family = a.address() instanceof Inet4Address ? 2 : 10;
            int s = m.begin(add ? RTM_NEWADDR : RTM_DELADDR, add ? NLM_F_CREATE | NLM_F_REPLACE : 0);
            ifaddrmsg(m.writer(), family, a.prefixLength(), family == 10 ? IFA_F_NODAD : 0, index);
            m.writer().attr(IFA_LOCAL, a.address().getAddress());
            m.writer().attr(IFA_ADDRESS, a.address().getAddress());
            m.end(s);
        }
        return m;
    }

    /** {@code RTM_GETADDR} dump of every address of every link (the kernel filters by index only in strict mode). */
    static NlWriter getAddresses() {
        return getAddresses(0);
    }

    /** {@code RTM_GETADDR} dump of the link with {@code index} (0: every link); a socket with strict checking honours the index. */
    static NlWriter getAddresses(int index) {
        NlWriter w = new NlWriter(64);
        int s = w.beginHeader(RTM_GETADDR, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_DUMP, 0);
        ifaddrmsg(w, 0, 0, 0, index);
        w.endMessage(s);
        return w;
    }

    /** {@code RTM_GETLINK} dump: every link with its index. */
    static NlWriter getLinks() {
        NlWriter w = new NlWriter(64);
        int s = w.beginHeader(RTM_GETLINK, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_DUMP, 0);
        ifinfomsg(w, 0, 0, 0);
        w.endMessage(s);
        return w;
    }
}
