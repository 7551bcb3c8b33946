package io.kproxy.netlink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernel's ipsets over nfnetlink ({@code NFNL_SUBSYS_IPSET}; {@link IpsetEncoding} has the
 * layout), in the network namespace the client was opened in: create, destroy, flush, swap, add
 * and delete members, list. No {@code ipset} command is run; many members travel in one datagram.
 *
 * <p>Like ipset itself, the requests are not atomic: {@link #apply} sends each operation and the
 * exception lists the refused ones (ipset's own error numbers are above 4096,
 * include/uapi/linux/netfilter/ipset/ip_set.h). Thread-safe: every call runs on the client's own
 * thread; each blocks until the kernel answered.
 */
public final class IpsetClient implements AutoCloseable {

    private final NlChannel channel;
    /** The newest revision of each type and family the kernel has, asked once ({@code IPSET_CMD_TYPE}), as ipset does before creating. */
    private final Map<String, Integer> revisions = new ConcurrentHashMap<>();

    private IpsetClient(NlChannel channel) {
        this.channel = channel;
    }

    /** A client for the named namespace (this process's own when empty). */
    public static IpsetClient open(Optional<String> netns) throws NetlinkRequestException {
        return new IpsetClient(NlChannel.open(netns, NetlinkSocket.NETLINK_NETFILTER, "ipset"));
    }

    /** Sends every operation, in order; throws listing the refused ones (the rest are applied). */
    public void apply(List<IpsetOp> ops) throws NetlinkRequestException {
        if (ops.isEmpty()) {
            return;
        }
        for (IpsetOp op : ops) {
            if (op instanceof IpsetOp.Create c) {
                revision(c.spec());
            }
        }
        List<NetlinkRequestException.Failure> failures = channel.send(IpsetEncoding.encode(ops, revisions));
        if (!failures.isEmpty()) {
            throw new NetlinkRequestException(failures, failures.stream().allMatch(f -> Errno.transientFailure(f.errno())));
        }
    }

    private void revision(IpsetSpec s) throws NetlinkRequestException {
        String key = IpsetEncoding.revisionKey(s);
        if (revisions.containsKey(key)) {
            return;
        }
        int[] rev = {-1};
        channel.request(IpsetEncoding.typeRequest(s.type().kernelName(), IpsetEncoding.family(s)), "TYPE " + key,
                r -> rev[0] = r.attrs(IpsetEncoding.NFGENMSG).u8(IpsetEncoding.ATTR_REVISION, -1));
        if (rev[0] < 0) {
            throw new NetlinkRequestException(List.of(new NetlinkRequestException.Failure(-1, "TYPE " + key, Errno.ENOENT, "no revision")), false);
        }
        revisions.put(key, rev[0]);
    }

    /** The named set with its members, or empty when there is no such set. */
    public Optional<IpsetContents> list(String set) throws NetlinkRequestException {
        if (set.isEmpty()) {
            throw new IllegalArgumentException("a set name is required; listAll lists every set");
        }
        try {
            List<IpsetContents> l = listing(set);
            return l.isEmpty() ? Optional.empty() : Optional.of(l.get(0));
        } catch (NetlinkRequestException e) {
            if (e.errno() == Errno.ENOENT) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /**
     * Whether the named set exists, asked with {@code IPSET_CMD_HEADER} ({@code ipset -n list NAME}
     * reads the same header): one short answer whatever the set holds, where {@link #list} would
     * bring every member.
     */
    public boolean exists(String set) throws NetlinkRequestException {
        if (set.isEmpty()) {
            throw new IllegalArgumentException("a set name is required");
        }
        boolean[] found = {false};
        try {
            channel.request(IpsetEncoding.headerRequest(set), "HEADER " + set, r -> found[0] = true);
        } catch (NetlinkRequestException e) {
            if (e.errno() == Errno.ENOENT) {
                return false;
            }
            throw e;
        }
        return found[0];
    }

    /** Every set of the namespace with its members (sets of types kproxy does not use are left out). */
    public List<IpsetContents> listAll() throws NetlinkRequestException {
        return listing("");
    }

    private List<IpsetContents> listing(String set) throws NetlinkRequestException {
        Map<String, IpsetType> types = new LinkedHashMap<>();
        Map<String, Boolean> ipv6 = new LinkedHashMap<>();
        Map<String, List<IpsetEntry>> members = new LinkedHashMap<>();
        channel.request(IpsetEncoding.listRequest(set), "LIST " + (set.isEmpty() ? "(all)" : set), r -> {
            NlAttrs a = r.attrs(IpsetEncoding.NFGENMSG);
            String name = a.string(IpsetEncoding.ATTR_SETNAME);
            if (a.has(IpsetEncoding.ATTR_TYPENAME)) {
                String type = a.string(IpsetEncoding.ATTR_TYPENAME);
                if (List.of(IpsetType.values()).stream().noneMatch(t -> t.kernelName().equals(type))) {
                    return;
                }
                types.put(name, IpsetType.of(type));
                ipv6.put(name, a.u8(IpsetEncoding.ATTR_FAMILY, 0) == IpsetEncoding.NFPROTO_IPV6);
            }
            IpsetType t = types.get(name);
            if (t != null) {
                members.computeIfAbsent(name, k -> new ArrayList<>()).addAll(IpsetEncoding.entries(t, a));
            }
        });
        List<IpsetContents> out = new ArrayList<>();
        for (Map.Entry<String, IpsetType> e : types.entrySet()) {
            out.add(new IpsetContents(e.getKey(), e.getValue(), ipv6.get(e.getKey()), members.getOrDefault(e.getKey(), List.of())));
        }
        return out;
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
