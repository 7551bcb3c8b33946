package io.kproxy.netlink;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kernel's IPVS table over generic netlink (family {@code "IPVS"}, resolved when opened;
 * include/uapi/linux/ip_vs.h, {@code net/netfilter/ipvs/ip_vs_ctl.c}): virtual services, their
 * real servers and the connection timeouts, in the network namespace the client was opened in.
 * No command is run; many changes travel in one datagram.
 *
 * <p>IPVS has no transactions: {@link #apply} sends every operation, the kernel applies each on
 * its own, and the exception lists the ones it refused (the others stay applied). Thread-safe:
 * every call runs on the client's own thread; each blocks until the kernel answered.
 */
public final class IpvsClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(IpvsClient.class);

    private final NlChannel channel;
    private final int familyId;

    private IpvsClient(NlChannel channel, int familyId) {
        this.channel = channel;
        this.familyId = familyId;
    }

    /**
     * A client for the named namespace (this process's own when empty). Fails with ENOENT when
     * the kernel has no IPVS family ({@code ip_vs} not loaded).
     */
    public static IpvsClient open(Optional<String> netns) throws NetlinkRequestException {
        NlChannel c = NlChannel.open(netns, NetlinkSocket.NETLINK_GENERIC, "ipvs");
        try {
            return new IpvsClient(c, GenlFamily.resolve(c, IpvsEncoding.FAMILY));
        } catch (NetlinkRequestException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Sends every operation, in order; throws listing the refused ones (the rest are applied). */
    public void apply(List<IpvsOp> ops) throws NetlinkRequestException {
        if (ops.isEmpty()) {
            return;
        }
        List<NetlinkRequestException.Failure> failures = channel.send(IpvsEncoding.encode(familyId, ops));
        if (!failures.isEmpty()) {
            LOG.debug("ipvs operations refused count={} first={}", failures.size(), failures.get(0));
            boolean retry = failures.stream().allMatch(f -> Errno.transientFailure(f.errno()));
            throw new NetlinkRequestException(failures, retry);
        }
    }

    /** Every virtual service ({@code IPVS_CMD_GET_SERVICE} dump). */
    public List<IpvsService> services() throws NetlinkRequestException {
        NlWriter w = request(IpvsEncoding.CMD_GET_SERVICE, NlChannel.NLM_F_DUMP);
        List<IpvsService> out = new ArrayList<>();
        channel.request(w, "GET_SERVICE", r -> out.add(IpvsEncoding.decodeService(r.attrs(GenlFamily.HEADER).nested(IpvsEncoding.CMD_ATTR_SERVICE))));
        return out;
    }

    /** The real servers of {@code service} ({@code IPVS_CMD_GET_DEST} dump); ENOENT when the service does not exist. */
    public List<IpvsDestination> destinations(IpvsService service) throws NetlinkRequestException {
        NlWriter w = new NlWriter(128);
        int m = w.beginHeader(familyId, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_DUMP, 0);
        GenlFamily.header(w, IpvsEncoding.CMD_GET_DEST, IpvsEncoding.VERSION);
        IpvsEncoding.serviceNest(w, service, false);
        w.endMessage(m);
        List<IpvsDestination> out = new ArrayList<>();
        channel.request(w, "GET_DEST " + service.key(),
                r -> out.add(IpvsEncoding.decodeDestination(r.attrs(GenlFamily.HEADER).nested(IpvsEncoding.CMD_ATTR_DEST), service.af())));
        return out;
    }

    /** The TCP, TCP FIN and UDP connection timeouts ({@code IPVS_CMD_GET_CONFIG}). */
    public IpvsTimeouts timeouts() throws NetlinkRequestException {
        NlWriter w = request(IpvsEncoding.CMD_GET_CONFIG, NlChannel.NLM_F_ACK);
        IpvsTimeouts[] t = {null};
        channel.request(w, "GET_CONFIG", r -> {
            NlAttrs a = r.attrs(GenlFamily.HEADER);
            t[0] = new IpvsTimeouts(a.u32(IpvsEncoding.CMD_ATTR_TIMEOUT_TCP, 0), a.u32(IpvsEncoding.CMD_ATTR_TIMEOUT_TCP_FIN, 0),
                    a.u32(IpvsEncoding.CMD_ATTR_TIMEOUT_UDP, 0));
        });
        if (t[0] == null) {
            throw new NetlinkRequestException(List.of(new NetlinkRequestException.Failure(-1, "GET_CONFIG", Errno.ENOENT, "no answer")), true);
        }
        return t[0];
    }

    /** Sets the timeouts ({@code IPVS_CMD_SET_CONFIG}); a 0 leaves that one unchanged. */
    public void setTimeouts(IpvsTimeouts t) throws NetlinkRequestException {
        channel.request(IpvsEncoding.setConfig(familyId, t), "SET_CONFIG " + t, r -> { });
    }

    /** Deletes every virtual service and real server of the namespace ({@code IPVS_CMD_FLUSH}, {@code ipvsadm -C}). */
    public void flush() throws NetlinkRequestException {
        channel.request(request(IpvsEncoding.CMD_FLUSH, NlChannel.NLM_F_ACK), "FLUSH", r -> { });
    }

    private NlWriter request(int cmd, int flags) {
        NlWriter w = new NlWriter(64);
        int m = w.beginHeader(familyId, NfBatch.NLM_F_REQUEST | flags, 0);
        GenlFamily.header(w, cmd, IpvsEncoding.VERSION);
        w.endMessage(m);
        return w;
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
