package io.kproxy.netlink;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntPredicate;

/**
 * Network links and their addresses over rtnetlink ({@code NETLINK_ROUTE}), in the network
 * namespace the client was opened in: what ipvs mode needs for its dummy device
 * {@code kube-ipvs0}, to which every service address is bound (upstream's
 * {@code pkg/proxy/ipvs/util/netlink_linux.go} does the same through vishvananda/netlink). No
 * command is run; many addresses travel in one datagram.
 *
 * <p>Thread-safe: every call runs on the client's own thread; each blocks until the kernel answered.
 */
public final class RtnlClient implements AutoCloseable {

    private static final int ENODEV = 19;
    private final NlChannel channel;

    /** Whether the kernel filters address dumps by link index (strict checking, Linux 4.20+). */
    private final boolean strict;

    private RtnlClient(NlChannel channel) {
        this.channel = channel;
        this.strict = channel.strictChecking();
    }

    /** A client for the named namespace (this process's own when empty). */
    public static RtnlClient open(Optional<String> netns) throws NetlinkRequestException {
        return new RtnlClient(NlChannel.open(netns, NetlinkSocket.NETLINK_ROUTE, "rtnl"));
    }

    /** Creates the dummy link {@code name} and sets it up; a dummy link of that name that exists is left as it is, and set up. */
    public void ensureDummy(String name) throws NetlinkRequestException {
        throwIfRefused(channel.send(RtnlEncoding.newLink(name, "dummy")));
    }

    /** Deletes the link {@code name} (and its addresses); returns false when there was none. */
    public boolean deleteLink(String name) throws NetlinkRequestException {
        List<NetlinkRequestException.Failure> f = channel.send(RtnlEncoding.delLink(name));
        if (f.size() == 1 && f.get(0).errno() == ENODEV) {
            return false;
        }
        throwIfRefused(f);
        return true;
    }

    /** The link's index, or empty when there is no link of that name. */
    public OptionalInt linkIndex(String name) throws NetlinkRequestException {
        int[] index = {-1};
        try {
            channel.request(RtnlEncoding.getLink(name), "GETLINK " + name, r -> {
                if (r.type() == RtnlEncoding.RTM_NEWLINK) {
                    index[0] = ByteBuffer.wrap(r.bytes()).order(ByteOrder.nativeOrder()).getInt(r.start() + 16 + 4);
                }
            });
        } catch (NetlinkRequestException e) {
            if (e.errno() == ENODEV) {
                return OptionalInt.empty();
            }
            throw e;
        }
        return index[0] < 0 ? OptionalInt.empty() : OptionalInt.of(index[0]);
    }

    /**
     * The addresses of link {@code name}, IPv4 and IPv6, in the kernel's order, including the IPv6
     * link-local address the kernel gives a link that is up; ENODEV when there is no such link.
     */
    public List<LinkAddress> addresses(String name) throws NetlinkRequestException {
        int index = requireIndex(name);
        return dump(strict ? index : 0, i -> i == index);
    }

    /**
     * Every address of every link but {@code except} (all of them when there is no such link),
     * IPv4 and IPv6, per link in the kernel's order, as upstream's {@code GetAllLocalAddressesExcept}
     * (pkg/proxy/ipvs/util/netlink_linux.go) lists the node addresses of ipvs mode's NodePorts. An
     * address on two links, one of them {@code except}, is listed for the other. Loopback and
     * link-local addresses are included; the caller filters. With strict checking the kernel
     * dumps each other link's addresses alone, so the thousands of service addresses on
     * {@code except} ({@code kube-ipvs0}) never travel; without it, one dump of every address,
     * filtered here.
     */
    public List<LinkAddress> addressesExcept(String except) throws NetlinkRequestException {
        OptionalInt skip = linkIndex(except);
        if (!strict || skip.isEmpty()) {
            return dump(0, i -> skip.isEmpty() || i != skip.getAsInt());
        }
        List<LinkAddress> out = new ArrayList<>();
        for (int index : linkIndices()) {
            if (index == skip.getAsInt()) {
                continue;
            }
            try {
                out.addAll(dump(index, i -> i == index));
            } catch (NetlinkRequestException e) {
                if (e.errno() != ENODEV) {
                    throw e;
                }
                // The link went away since the link dump: it has no addresses any more.
            }
        }
        return out;
    }

    /** Every link's index, in the kernel's order. */
    private List<Integer> linkIndices() throws NetlinkRequestException {
        List<Integer> out = new ArrayList<>();
        channel.request(RtnlEncoding.getLinks(), "GETLINK (all)", r -> {
            if (r.type() == RtnlEncoding.RTM_NEWLINK) {
                out.add(ByteBuffer.wrap(r.bytes()).order(ByteOrder.nativeOrder()).getInt(r.start() + 16 + 4));
            }
        });
        return out;
    }

    private List<LinkAddress> dump(int index, IntPredicate linkIndex) throws NetlinkRequestException {
        List<LinkAddress> out = new ArrayList<>();
        channel.request(RtnlEncoding.getAddresses(index), "GETADDR" + (index == 0 ? "" : " index " + index), r -> {
            ByteBuffer b = ByteBuffer.wrap(r.bytes()).order(ByteOrder.nativeOrder());
            int prefix = b.get(r.start() + 17) & 0xff;
            if (r.type() != RtnlEncoding.RTM_NEWADDR || !linkIndex.test(b.getInt(r.start() + 20))) {
                return;
            }
            NlAttrs a = r.attrs(RtnlEncoding.IFADDRMSG);
            byte[] raw = a.has(RtnlEncoding.IFA_LOCAL) ? a.bytes(RtnlEncoding.IFA_LOCAL) : a.bytes(RtnlEncoding.IFA_ADDRESS);
            try {
                out.add(new LinkAddress(InetAddress.getByAddress(raw), prefix));
            } catch (UnknownHostException e) {
                throw new IllegalStateException("address of " + raw.length + " bytes on link " + b.getInt(r.start() + 20), e);
            }
        });
        return out;
    }

    /** Adds the addresses to link {@code name} (one already there stays); throws listing the refused ones. */
    public void addAddresses(String name, List<LinkAddress> addresses) throws NetlinkRequestException {
        change(name, addresses, true);
    }

    /** Deletes the addresses from link {@code name}; throws listing the refused ones (EADDRNOTAVAIL: not there). */
    public void deleteAddresses(String name, List<LinkAddress> addresses) throws NetlinkRequestException {
        change(name, addresses, false);
    }

    private void change(String name, List<LinkAddress> addresses, boolean add) throws NetlinkRequestException {
        if (addresses.isEmpty()) {
            return;
        }
        throwIfRefused(channel.send(RtnlEncoding.addresses(add, requireIndex(name), name, addresses)));
    }

    private int requireIndex(String name) throws NetlinkRequestException {
        OptionalInt i = linkIndex(name);
        if (i.isEmpty()) {
            throw new NetlinkRequestException(List.of(new NetlinkRequestException.Failure(-1, "GETLINK " + name, ENODEV, "no such link")), false);
        }
        return i.getAsInt();
    }

    private static void throwIfRefused(List<NetlinkRequestException.Failure> failures) throws NetlinkRequestException {
        if (!failures.isEmpty()) {
            throw new NetlinkRequestException(failures, failures.stream().allMatch(f -> Errno.transientFailure(f.errno())));
        }
    }

    /** Which namespace the client programs, for logs. */
    public String description() {
        return channel.description();
    }

    @Override
    public void close() {
        channel.close();
    }
}
