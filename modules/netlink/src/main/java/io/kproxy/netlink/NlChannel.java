package io.kproxy.netlink;

import io.kproxy.netns.NetnsThread;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A netlink socket of one protocol (generic netlink, rtnetlink, nfnetlink) opened on a
 * {@link NetnsThread} in the target namespace, with the two exchanges the non-nf_tables clients
 * need: many independent requests, acknowledged per chunk (only the chunk's last message asks for
 * an acknowledgement; the kernel reports every refused one anyway, {@code netlink_rcv_skb} in
 * {@code net/netlink/af_netlink.c}), and one request whose replies (a dump, or an answer and its
 * acknowledgement) are handed over one message at a time.
 *
 * <p>Thread-safe: every exchange runs on the channel's own thread. Blocks until the kernel
 * answered or the receive timeout passed.
 */
final class NlChannel implements AutoCloseable {

    static final int NLMSG_ERROR = 2;
    static final int NLMSG_DONE = 3;
    static final int NLM_F_ACK = 0x4;
    static final int NLM_F_DUMP = 0x300;
    private static final int NLM_F_CAPPED = 0x100;
    private static final int NLM_F_ACK_TLVS = 0x200;
    private static final int NLMSGERR_ATTR_MSG = 1;
    private static final int RECEIVE_TIMEOUT_MILLIS = 5000;
    /** Requests per datagram: the kernel handles a datagram's messages in one go, and refusals of one chunk must fit the receive buffer. */
    private static final int CHUNK_BYTES = 128 * 1024;
    private static final int CHUNK_MESSAGES = 1024;

    /** One reply message: its bytes are {@code bytes[start, start + length)}. */
    record Reply(byte[] bytes, int start, int length, int type, int flags) {
        /** Its attributes, after the netlink header and {@code familyHeader} bytes of the family's own header. */
        NlAttrs attrs(int familyHeader) {
            return NlAttrs.parse(bytes, start + 16 + familyHeader, start + length);
        }
    }

    private final NetnsThread thread;
    private final NetlinkSocket socket;
    private final AtomicInteger seq = new AtomicInteger((int) (System.nanoTime() & 0x3fffffff));

    private NlChannel(NetnsThread thread, NetlinkSocket socket) {
        this.thread = thread;
        this.socket = socket;
    }

    /** Opens a {@code protocol} socket in the named namespace (this process's own when empty). */
    static NlChannel open(Optional<String> netns, int protocol, String purpose) throws NetlinkRequestException {
        NetnsThread t = netns.map(n -> NetnsThread.enter(n, purpose)).orElseGet(() -> NetnsThread.current(purpose));
        NetlinkException[] failed = new NetlinkException[1];
        NetlinkSocket s = t.call(() -> {
            try {
                return NetlinkSocket.open(protocol, 4 << 20, RECEIVE_TIMEOUT_MILLIS);
            } catch (NetlinkException e) {
                failed[0] = e;
                return null;
            }
        });
        if (s == null) {
            t.close();
            throw NetlinkRequestException.of("open " + purpose + " socket in " + t.description(), failed[0]);
        }
        return new NlChannel(t, s);
    }

    String description() {
        return thread.description();
    }

    /** {@link NetlinkSocket#strictChecking()}, on the socket's thread. */
    boolean strictChecking() {
        return thread.call(socket::strictChecking);
    }

    /** Sends every message of {@code m} in order and returns the refused ones (empty: all applied). */
    List<NetlinkRequestException.Failure> send(NlMessages m) {
        List<NetlinkRequestException.Failure> failures = new ArrayList<>();
        NlWriter w = m.writer();
        int i = 0;
        while (i < m.size()) {
            int from = i;
            int bytes = 0;
            while (i < m.size() && i - from < CHUNK_MESSAGES && (i == from || bytes + m.limit(i) - m.start(i) <= CHUNK_BYTES)) {
                bytes += m.limit(i) - m.start(i);
                i++;
            }
            int to = i;
            int first = seq.getAndAdd(to - from);
            for (int k = from; k < to; k++) {
                w.setU32Host(m.start(k) + 8, first + k - from);
                int flags = w.getU16Host(m.start(k) + 6) & ~NLM_F_ACK;
                w.setU16Host(m.start(k) + 6, k == to - 1 ? flags | NLM_F_ACK : flags);
            }
            int start = m.start(from);
            int length = m.limit(to - 1) - start;
            thread.call(() -> {
                exchangeChunk(w, start, length, first, to - from, (offset, errno, detail) ->
                        failures.add(new NetlinkRequestException.Failure(offset < 0 ? -1 : from + offset,
                                offset < 0 ? "requests " + from + ".." + (to - 1) : m.describe(from + offset), errno, detail)));
                return null;
            });
        }
        return failures;
    }

    private interface Refusal {
        void refused(int offset, int errno, String detail);
    }

    private void exchangeChunk(NlWriter w, int start, int length, int firstSeq, int count, Refusal refusal) {
        try {
            socket.send(w.segment().asSlice(start), length);
        } catch (NetlinkException e) {
            refusal.refused(-1, e.errno(), e.getMessage());
            return;
        }
        while (true) {
            byte[] reply;
            try {
                reply = socket.receive();
            } catch (NetlinkException e) {
                if (e.errno() == Errno.ENOBUFS) {
                    refusal.refused(-1, e.errno(), "refusals overflowed the socket buffer");
                    continue;
                }
                refusal.refused(-1, e.errno(), "no acknowledgement from the kernel: " + e.getMessage());
                return;
            }
            ByteBuffer b = ByteBuffer.wrap(reply).order(ByteOrder.nativeOrder());
            int at = 0;
            boolean done = false;
            while (at + 16 <= reply.length) {
                int len = b.getInt(at);
                if (len < 16 || at + len > reply.length) {
                    break;
                }
                if ((b.getShort(at + 4) & 0xffff) == NLMSG_ERROR && len >= 36) {
                    int error = -b.getInt(at + 16);
                    int offset = b.getInt(at + 16 + 4 + 8) - firstSeq;
                    if (offset >= 0 && offset < count) {
                        if (error != 0) {
                            String detail = extAckMessage(b, at, len, b.getShort(at + 6) & 0xffff);
                            refusal.refused(offset, error, detail == null ? "" : detail);
                        }
                        done |= offset == count - 1;
                    }
                }
                at += (len + 3) & ~3;
            }
            if (done) {
                return;
            }
        }
    }

    /**
     * Sends the one message {@code w} holds (its sequence number is set here) and hands every
     * reply to it to {@code each}, until the dump's end or the acknowledgement; throws when the
     * kernel refuses it or does not answer. {@code what} describes it in errors.
     */
    void request(NlWriter w, String what, Consumer<Reply> each) throws NetlinkRequestException {
        int mySeq = seq.getAndIncrement();
        w.setU32Host(8, mySeq);
        int length = w.position();
        NetlinkRequestException.Failure f = thread.call(() -> {
            try {
                socket.send(w.segment(), length);
                while (true) {
                    byte[] reply = socket.receive();
                    ByteBuffer b = ByteBuffer.wrap(reply).order(ByteOrder.nativeOrder());
                    int at = 0;
                    while (at + 16 <= reply.length) {
                        int len = b.getInt(at);
                        int type = b.getShort(at + 4) & 0xffff;
                        if (len < 16 || at + len > reply.length) {
                            return new NetlinkRequestException.Failure(0, what, 0, "malformed reply");
                        }
                        if (b.getInt(at + 8) == mySeq) {
                            if (type == NLMSG_DONE) {
                                return null;
                            }
                            if (type == NLMSG_ERROR) {
                                int error = -b.getInt(at + 16);
                                if (error == 0) {
                                    return null;
                                }
                                String detail = extAckMessage(b, at, len, b.getShort(at + 6) & 0xffff);
                                return new NetlinkRequestException.Failure(0, what, error, detail == null ? "" : detail);
                            }
                            each.accept(new Reply(reply, at, len, type, b.getShort(at + 6) & 0xffff));
                        }
                        at += (len + 3) & ~3;
                    }
                }
            } catch (NetlinkException e) {
                return new NetlinkRequestException.Failure(0, what, e.errno(), e.getMessage());
            }
        });
        if (f != null) {
            throw new NetlinkRequestException(List.of(f), Errno.transientFailure(f.errno()));
        }
    }

    /** The kernel's {@code NLMSGERR_ATTR_MSG}, when the error carries extended-ack attributes. */
    static String extAckMessage(ByteBuffer b, int start, int len, int flags) {
        if ((flags & NLM_F_ACK_TLVS) == 0) {
            return null;
        }
        int at = start + 16 + 4 + 16;
        if ((flags & NLM_F_CAPPED) == 0) {
            at = start + 16 + 4 + ((b.getInt(start + 20) + 3) & ~3);
        }
        while (at + 4 <= start + len) {
            int alen = b.getShort(at) & 0xffff;
            int atype = b.getShort(at + 2) & 0x3fff;
            if (alen < 4) {
                break;
            }
            if (atype == NLMSGERR_ATTR_MSG) {
                byte[] s = new byte[Math.max(0, alen - 5)];
                b.get(at + 4, s);
                return new String(s, StandardCharsets.UTF_8);
            }
            at += (alen + 3) & ~3;
        }
        return null;
    }

    @Override
    public void close() {
        try {
            thread.call(() -> {
                socket.close();
                return null;
            });
        } finally {
            thread.close();
        }
    }
}
