package io.kproxy.netlink;

import java.util.List;

/**
 * Resolves a generic netlink family's id by name ({@code CTRL_CMD_GETFAMILY} to the controller,
 * {@code include/uapi/linux/genetlink.h}): the id is assigned when the family registers, e.g.
 * when {@code ip_vs} is loaded, so it is asked for, never assumed.
 */
final class GenlFamily {

    static final int GENL_ID_CTRL = 0x10;
    private static final int CTRL_CMD_GETFAMILY = 3;
    private static final int CTRL_ATTR_FAMILY_ID = 1;
    private static final int CTRL_ATTR_FAMILY_NAME = 2;
    /** The generic netlink header: cmd, version, two reserved bytes. */
    static final int HEADER = 4;

    private GenlFamily() {
    }

    /** The request's bytes, for tests: {@code nlmsghdr}, {@code genlmsghdr} (cmd 3, version 1), the name attribute. */
    static NlWriter request(String name) {
        NlWriter w = new NlWriter(64);
        int m = w.beginHeader(GENL_ID_CTRL, NfBatch.NLM_F_REQUEST | NlChannel.NLM_F_ACK, 0);
        header(w, CTRL_CMD_GETFAMILY, 1);
        w.string(CTRL_ATTR_FAMILY_NAME, name);
        w.endMessage(m);
        return w;
    }

    /** Writes a {@code genlmsghdr}. */
    static void header(NlWriter w, int cmd, int version) {
        w.putBytes(new byte[] {(byte) cmd, (byte) version, 0, 0});
    }

    /** The family's id; throws (ENOENT) when no such family is registered, e.g. its module is not loaded. */
    static int resolve(NlChannel channel, String name) throws NetlinkRequestException {
        int[] id = {-1};
        channel.request(request(name), "CTRL_CMD_GETFAMILY " + name,
                r -> id[0] = r.attrs(HEADER).u16(CTRL_ATTR_FAMILY_ID, -1));
        if (id[0] < 0) {
            throw new NetlinkRequestException(List.of(new NetlinkRequestException.Failure(-1, "CTRL_CMD_GETFAMILY " + name,
                    Errno.ENOENT, "no family id in the answer")), false);
        }
        return id[0];
    }
}
