package io.kproxy.netlink;

import io.kproxy.netns.NetnsThread;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
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
    private static final int RECEIVE_TIMEOUT_MILLIS = 5000;
    private static final int NLMSG_DONE = 3;
    private static final int NLM_F_DUMP = 0x300;
    private static final int SUBSYS = 10; // NFNL_SUBSYS_NFTABLES
    private static final int GETTABLE = 1;
    private static final int GETCHAIN = 4;
    private static final int GETSET = 10;
    private static final int NFTA_TABLE_NAME = 1;
    private static final int NFTA_CHAIN_TABLE = 1;
    private static final int NFTA_CHAIN_NAME = 3;
    private static final int NFTA_CHAIN_HOOK = 4;
    private static final int NFTA_SET_TABLE = 1;
    private static final int NFTA_SET_NAME = 2;
    private static final int NFTA_SET_FLAGS = 3;
    private static final int NFT_SET_ANONYMOUS = 0x1;
    private static final int NFT_SET_MAP = 0x8;

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
            socket.send(bytes.segment(), bytes.length());
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
                            detail = NlChannel.extAckMessage(b, start, len, flags);
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

    /**
     * The chains, sets and maps of {@code table} in {@code family}, by name, read with netlink
     * dumps (no rules, no elements). Blocks; throws when the kernel does not answer.
     */
    public NfTableObjects objects(NfFamily family, String table) throws NfTablesException {
        Map<String, Boolean> chains = new LinkedHashMap<>();
        Set<String> sets = new LinkedHashSet<>();
        Set<String> maps = new LinkedHashSet<>();
        int[] tables = new int[1];
        dump(GETTABLE, family, table, attrs -> {
            if (table.equals(attrs.get(NFTA_TABLE_NAME))) {
                tables[0]++;
            }
        });
        if (tables[0] == 0) {
            return NfTableObjects.ABSENT;
        }
        dump(GETCHAIN, family, table, attrs -> {
            if (table.equals(attrs.get(NFTA_CHAIN_TABLE)) && attrs.get(NFTA_CHAIN_NAME) != null) {
                chains.put(attrs.get(NFTA_CHAIN_NAME), attrs.containsKey(NFTA_CHAIN_HOOK));
            }
        });
        dump(GETSET, family, table, attrs -> {
            String name = attrs.get(NFTA_SET_NAME);
            int flags = attrs.containsKey(NFTA_SET_FLAGS) ? Integer.parseInt(attrs.get(NFTA_SET_FLAGS)) : 0;
            if (table.equals(attrs.get(NFTA_SET_TABLE)) && name != null && (flags & NFT_SET_ANONYMOUS) == 0) {
                ((flags & NFT_SET_MAP) != 0 ? maps : sets).add(name);
            }
        });
        return new NfTableObjects(true, chains, sets, maps);
    }

    /**
     * The names of every table of {@code family} (its own and any other program's), read with one
     * netlink dump of the tables alone: no chain, set or rule is read. Blocks; throws when the kernel
     * does not answer.
     */
    public Set<String> tables(NfFamily family) throws NfTablesException {
        Set<String> names = new TreeSet<>();
        dump(GETTABLE, family, "", attrs -> {
            String name = attrs.get(NFTA_TABLE_NAME);
            if (name != null) {
                names.add(name);
            }
        });
        return names;
    }

    /**
     * Dumps one kind of object of {@code family} (a table filter is passed where the kernel
     * honours one; callers check the table attribute anyway) and hands each object's top-level
     * attributes to {@code each}: strings as text, u32 values as decimal text, nests as "".
     */
    private void dump(int type, NfFamily family, String table, Consumer<Map<Integer, String>> each) throws NfTablesException {
        int first = seq.getAndIncrement();
        NlWriter w = new NlWriter(256);
        int m = w.beginMessage(SUBSYS << 8 | type, NfBatch.NLM_F_REQUEST | NLM_F_DUMP, first, family.proto(), 0);
        if (type == GETSET) {
            w.string(NFTA_SET_TABLE, table);
        }
        w.endMessage(m);
        MemorySegment request = w.segment();
        int requestLength = w.position();
        String error = thread.call(() -> {
            try {
                socket.send(request, requestLength);
                while (true) {
                    ByteBuffer b = ByteBuffer.wrap(socket.receive()).order(ByteOrder.nativeOrder());
                    while (b.remaining() >= 16) {
                        int start = b.position();
                        int len = b.getInt(start);
                        int mtype = b.getShort(start + 4) & 0xffff;
                        if (len < 16 || start + len > b.limit()) {
                            return "malformed dump reply";
                        }
                        if (b.getInt(start + 8) == first) {
                            if (mtype == NLMSG_DONE) {
                                return null;
                            }
                            if (mtype == NLMSG_ERROR) {
                                int errno = -b.getInt(start + 16);
                                return errno == 0 ? null : "errno " + errno;
                            }
                            each.accept(attributes(b, start + 20, start + len));
                        }
                        b.position(Math.min(b.limit(), start + ((len + 3) & ~3)));
                    }
                }
            } catch (NetlinkException e) {
                return e.getMessage();
            }
        });
        if (error != null) {
            throw new NfTablesException(-1, null, 0, "dump of " + family + " " + table + " objects: " + error, true);
        }
    }

    private static Map<Integer, String> attributes(ByteBuffer b, int from, int to) {
        Map<Integer, String> out = new HashMap<>();
        int at = from;
        while (at + 4 <= to) {
            int alen = b.getShort(at) & 0xffff;
            int atype = b.getShort(at + 2) & 0x3fff;
            if (alen < 4 || at + alen > to) {
                break;
            }
            boolean nested = (b.getShort(at + 2) & NlWriter.NLA_F_NESTED) != 0;
            if (nested || atype == NFTA_CHAIN_HOOK && alen > 4) {
                out.put(atype, "");
            } else if (alen == 8 && atype == NFTA_SET_FLAGS) {
                // nf_tables' own u32 values are in network byte order
                int v = (b.get(at + 4) & 0xff) << 24 | (b.get(at + 5) & 0xff) << 16 | (b.get(at + 6) & 0xff) << 8 | b.get(at + 7) & 0xff;
                out.put(atype, Integer.toString(v));
            } else {
                byte[] v = new byte[alen - 4];
                b.get(at + 4, v);
                int n = v.length;
                while (n > 0 && v[n - 1] == 0) {
                    n--;
                }
                out.put(atype, new String(v, 0, n, StandardCharsets.UTF_8));
            }
            at += (alen + 3) & ~3;
        }
        return out;
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
