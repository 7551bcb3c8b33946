package io.kproxy.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes nf_tables batches straight to the kernel over {@code NETLINK_NETFILTER}, with no cache
 * of the kernel's objects (libnftables reads every chain and set of a table before it evaluates a
 * command that names one: about 0.4 s at 10,000 services, docs/backends/nftables.md). The socket
 * is opened and used on a {@link NetnsThread} that entered the target namespace.
 *
 * <p>Protocol ({@code net/netfilter/nfnetlink.c}): the kernel processes the whole batch inside
 * {@code sendto}, queues an error for every message it refuses and an acknowledgement for the
 * last one (the only message sent with {@code NLM_F_ACK}), then commits or aborts; a failed
 * commit is reported against the batch's begin message. So the replies are read until the last
 * message's acknowledgement (or the receive timeout), and the first error names the operation.
 *
 * <p>Thread-safe: every call runs on the client's own thread. Blocks until the kernel answered.
 */
public final class NfTablesClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NfTablesClient.class);
    private static final int NLMSG_ERROR = 2;
    private static final int NLM_F_CAPPED = 0x100;
    private static final int NLM_F_ACK_TLVS = 0x200;
    private static final int NLMSGERR_ATTR_MSG = 1;
    private static final int RECEIVE_TIMEOUT_MILLIS = 5000;

    private final NetnsThread thread;
    private final NetlinkSocket socket;
    // Sequence numbers only have to tell this client's batches apart; they wrap, and replies are
    // matched by distance from the batch's first number, which survives the wrap.
    private final AtomicInteger seq = new AtomicInteger((int) (System.currentTimeMillis() / 1000));

    private NfTablesClient(NetnsThread thread, NetlinkSocket socket) {
        this.thread = thread;
        this.socket = socket;
    }

    /** A client for the named namespace, or this process's own when empty; fails when the socket cannot be opened. */
    public static NfTablesClient open(Optional<String> netns) throws NfTablesException {
        NetnsThread t = netns.map(n -> NetnsThread.enter(n, "nfnetlink")).orElseGet(() -> NetnsThread.current("nfnetlink"));
        try {
            NetlinkSocket s = t.call(() -> {
                try {
                    return NetlinkSocket.open(NetlinkSocket.NETLINK_NETFILTER, 4 << 20, RECEIVE_TIMEOUT_MILLIS);
                } catch (NetlinkException e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
            return new NfTablesClient(t, s);
        } catch (RuntimeException e) {
            t.close();
            int errno = e.getCause() instanceof NetlinkException n ? n.errno() : 0;
            throw new NfTablesException(-1, null, errno, e.getMessage(), false);
        }
    }

    /** Applies {@code batch} atomically, or throws and leaves the kernel unchanged. */
    public void commit(NfBatch batch) throws NfTablesException {
        run(batch, true);
    }

    /** Sends {@code batch} without its end message: the kernel checks every operation and aborts. */
    public void check(NfBatch batch) throws NfTablesException {
        run(batch, false);
    }

    private void run(NfBatch batch, boolean commit) throws NfTablesException {
        if (batch.isEmpty()) {
            return;
        }
        int messages = batch.messages();
        int first = seq.getAndAdd(messages + 2);
        NfBatch.Encoded bytes = batch.encode(first, commit);
        Outcome o = thread.call(() -> exchange(bytes, first, messages));
        if (o.errno != 0 || o.noAnswer) {
            int message = o.errorSeq - first - 1;
            int op = message >= 0 && message < messages ? batch.operationOf(message) : -1;
            String text = op >= 0 ? batch.describe(op) : null;
            boolean retry = o.noAnswer || Errno.transientFailure(o.errno);
            LOG.debug("nf_tables batch refused operation={} errno={} detail={}", text, o.errno, o.detail);
            throw new NfTablesException(op, text, o.errno, o.noAnswer ? "no acknowledgement from the kernel: " + o.detail : o.detail, retry);
        }
    }

    /** What the kernel answered: the first error (its sequence number, errno, message), or none. */
    private record Outcome(int errorSeq, int errno, String detail, boolean noAnswer) {
    }

    /** Sends the batch whose begin message is {@code firstSeq} and reads the replies to its {@code messages} messages. */
    private Outcome exchange(NfBatch.Encoded bytes, int firstSeq, int messages) {
        try {
            socket.send(bytes.bytes(), bytes.length());
        } catch (NetlinkException e) {
            return new Outcome(firstSeq, e.errno(), e.getMessage(), false);
        }
        int errSeq = 0;
        int errno = 0;
        String detail = null;
        while (true) {
            byte[] reply;
            try {
                reply = socket.receive();
            } catch (NetlinkException e) {
                if (e.errno() == Errno.ENOBUFS) {
                    // Replies were dropped; the last acknowledgement may still be queued.
                    if (errno == 0) {
                        errSeq = firstSeq;
                        errno = Errno.ENOBUFS;
                        detail = "error reports overflowed the socket buffer";
                    }
                    continue;
                }
                return errno != 0 ? new Outcome(errSeq, errno, detail, false) : new Outcome(firstSeq, 0, e.getMessage(), true);
            }
            ByteBuffer b = ByteBuffer.wrap(reply).order(ByteOrder.nativeOrder());
            boolean done = false;
            while (b.remaining() >= 16) {
                int start = b.position();
                int len = b.getInt(start);
                int type = b.getShort(start + 4) & 0xffff;
                int flags = b.getShort(start + 6) & 0xffff;
                if (len < 16 || start + len > reply.length) {
                    break;
                }
                if (type == NLMSG_ERROR && len >= 36) {
                    int error = -b.getInt(start + 16);
                    int origSeq = b.getInt(start + 16 + 4 + 8);
                    int distance = origSeq - firstSeq;
                    if (distance >= 0 && distance <= messages) {
                        if (error != 0 && errno == 0) {
                            errSeq = origSeq;
                            errno = error;
                            detail = extAckMessage(b, start, len, flags);
                        }
                        done |= distance == messages;
                    }
                }
                b.position(start + ((len + 3) & ~3));
            }
            if (done) {
                return new Outcome(errSeq, errno, detail, false);
            }
        }
    }

    /** The kernel's {@code NLMSGERR_ATTR_MSG}, when the error carries extended-ack attributes. */
    private static String extAckMessage(ByteBuffer b, int start, int len, int flags) {
        if ((flags & NLM_F_ACK_TLVS) == 0) {
            return null;
        }
        int at = start + 16 + 4 + 16;
        if ((flags & NLM_F_CAPPED) == 0) {
            int origLen = b.getInt(start + 20);
            at = start + 16 + 4 + ((origLen + 3) & ~3);
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

    /** Which namespace the client programs, for logs. */
    public String description() {
        return thread.description();
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
