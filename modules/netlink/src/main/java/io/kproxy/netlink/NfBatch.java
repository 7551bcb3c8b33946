package io.kproxy.netlink;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One nf_tables transaction under construction: the messages of a netlink batch
 * ({@code NFNL_MSG_BATCH_BEGIN}, the operations, {@code NFNL_MSG_BATCH_END}), which the kernel
 * applies atomically or not at all ({@code net/netfilter/nfnetlink.c}). Each method appends one
 * operation; an element list too long for one message is split over several messages of the
 * same operation. Operations are numbered from 0 in the order they were added, which is how
 * {@link NfTablesException#operation()} names the one the kernel refused.
 *
 * <p>Message flags are nft's: {@code NLM_F_CREATE} on additions (no {@code NLM_F_EXCL}, so
 * adding what exists is a no-op), {@code NLM_F_APPEND} on rules. Not thread-safe.
 */
public final class NfBatch {

    static final int SUBSYS_NFTABLES = 10;
    static final int NLM_F_REQUEST = 0x1;
    static final int NLM_F_ACK = 0x4;
    static final int NLM_F_CREATE = 0x400;
    static final int NLM_F_APPEND = 0x800;
    static final int BATCH_BEGIN = 0x10;
    static final int BATCH_END = 0x11;
    private static final int MAX_ELEMENTS_BYTES = 48 * 1024; // an attribute's length is 16 bits

    private static final int NEWTABLE = 0;
    private static final int DELTABLE = 2;
    private static final int NEWCHAIN = 3;
    private static final int DELCHAIN = 5;
    private static final int NEWRULE = 6;
    private static final int DELRULE = 8;
    private static final int NEWSET = 9;
    private static final int DELSET = 11;
    private static final int NEWSETELEM = 12;
    private static final int DELSETELEM = 14;

    /** One operation, described only when an error names it (a full sync holds a hundred thousand). */
    private record Op(String what, NfFamily family, String table, String object) {
        @Override
        public String toString() {
            return what + " " + familyName(family) + " " + table + (object.isEmpty() ? "" : " " + object);
        }
    }

    /** The bytes {@link #encode} produced: the first {@code length} bytes of {@code segment} (native memory). */
    record Encoded(MemorySegment segment, int length) {
        byte[] toByteArray() {
            return segment.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    private final NlWriter w;
    private int[] messageStarts = new int[64];
    private int[] messageOps = new int[64];
    private int messageCount;
    private final List<Op> ops = new ArrayList<>();
    private int nextSetId = 1;
    /** The id of this batch's first set: 1, or for a tail where the head's ids end ({@link #startSetIdsAt}). */
    private int firstSetId = 1;
    /** The buffer this batch split a tail off ({@link #splitOff}), until it is appended. */
    private MemorySegment whole;
    /** For a tail: it has no begin message, and its set ids may start later ({@link #startSetIdsAt}). */
    private final boolean tail;

    public NfBatch() {
        this(4096);
    }

    /**
     * A batch whose buffer starts with room for {@code expectedBytes}: a full sync's batch is
     * tens of megabytes, and growing to it copies it several times while old and new buffers are
     * both alive.
     */
    public NfBatch(int expectedBytes) {
        w = new NlWriter(expectedBytes);
        int begin = w.beginMessage(BATCH_BEGIN, NLM_F_REQUEST, 0, 0, SUBSYS_NFTABLES);
        w.endMessage(begin);
        tail = false;
    }

    private NfBatch(NlWriter tailWriter) {
        w = tailWriter;
        tail = true;
    }

    /**
     * The tail of this batch, for building one transaction on two threads: a batch without a begin
     * message that writes into this one's buffer past its first {@code headBytes}, while this one
     * goes on with the first operations; {@link #append} then joins it after them, in place when
     * each part fit its share of the buffer. Only once, on a batch that holds no operation yet.
     */
    public NfBatch splitOff(int headBytes) {
        if (tail || whole != null || !ops.isEmpty()) {
            throw new IllegalStateException("a tail is split off a new batch, once");
        }
        whole = w.segment();
        return new NfBatch(w.splitOff(headBytes));
    }

    /**
     * Numbers this tail's sets from {@code firstId} on: the ids the batch it is appended to will
     * have given before it (set ids are the batch's, in order). Before any operation.
     */
    public void startSetIdsAt(int firstId) {
        if (!tail || !ops.isEmpty() || firstId < 1) {
            throw new IllegalStateException("set ids start over only on an empty tail, at 1 or later");
        }
        nextSetId = firstId;
        firstSetId = firstId;
    }

    /** The id the next set of this batch gets ({@link #addSet}). */
    public int nextSetId() {
        return nextSetId;
    }

    /**
     * Appends the operations of {@code t}, the tail {@link #splitOff} this batch: the bytes and
     * operation numbers are as if this batch had written them itself. Its set ids must go on from
     * this batch's.
     *
     * @throws IllegalStateException when {@code t} is not this batch's tail or its set ids do not go on from here
     */
    public void append(NfBatch t) {
        if (whole == null || !t.tail || t == this) {
            throw new IllegalStateException("only the tail split off this batch is appended to it");
        }
        if (t.firstSetId != nextSetId) {
            throw new IllegalStateException("the tail's set ids start at " + t.firstSetId + ", this batch's next is " + nextSetId);
        }
        int at = w.append(t.w, whole);
        whole = null;
        int ops0 = ops.size();
        for (int i = 0; i < t.messageCount; i++) {
            if (messageCount == messageStarts.length) {
                messageStarts = Arrays.copyOf(messageStarts, messageCount * 2);
                messageOps = Arrays.copyOf(messageOps, messageCount * 2);
            }
            messageStarts[messageCount] = at + t.messageStarts[i];
            messageOps[messageCount++] = ops0 + t.messageOps[i];
        }
        ops.addAll(t.ops);
        nextSetId = t.nextSetId;
    }

    /** Number of operations. */
    public int size() {
        return ops.size();
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    /** What operation {@code index} does, for error messages ({@code NEWRULE ip kube-proxy services}). */
    public String describe(int index) {
        return ops.get(index).toString();
    }

    public void addTable(NfFamily f, String table, byte[] userdata) {
        int m = begin(NEWTABLE, NLM_F_CREATE, f, "NEWTABLE", table, "");
        w.string(1, table);
        w.u32Be(2, 0);
        if (userdata != null) {
            w.attr(6, userdata);
        }
        w.endMessage(m);
    }

    public void deleteTable(NfFamily f, String table) {
        int m = begin(DELTABLE, 0, f, "DELTABLE", table, "");
        w.string(1, table);
        w.endMessage(m);
    }

    /** Deletes every rule of the table ({@code flush table}); sets and chains stay. */
    public void flushTable(NfFamily f, String table) {
        int m = begin(DELRULE, 0, f, "DELRULE", table, "");
        w.string(1, table);
        w.endMessage(m);
    }

    /** A regular chain ({@code hook} null) or a base chain. */
    public void addChain(NfFamily f, String table, String chain, NfHook hook, byte[] userdata) {
        int m = begin(NEWCHAIN, NLM_F_CREATE, f, "NEWCHAIN", table, chain);
        w.string(1, table);
        w.string(3, chain);
        if (hook != null) {
            w.string(7, hook.type());
            int h = w.beginNest(4);
            w.u32Be(1, hook.hooknum());
            w.u32Be(2, hook.priority());
            w.endNest(h);
        }
        if (userdata != null) {
            w.attr(12, userdata);
        }
        w.endMessage(m);
    }

    public void flushChain(NfFamily f, String table, String chain) {
        int m = begin(DELRULE, 0, f, "DELRULE", table, chain);
        w.string(1, table);
        w.string(2, chain);
        w.endMessage(m);
    }

    public void deleteChain(NfFamily f, String table, String chain) {
        int m = begin(DELCHAIN, 0, f, "DELCHAIN", table, chain);
        w.string(1, table);
        w.string(3, chain);
        w.endMessage(m);
    }

    /** Creates a set; returns its batch-local id, which lookups of an anonymous set must name. */
    public int addSet(NfFamily f, String table, NfSetSpec s) {
        int id = nextSetId++;
        int m = begin(NEWSET, NLM_F_CREATE, f, "NEWSET", table, s.name());
        w.string(1, table);
        w.string(2, s.name());
        w.u32Be(3, s.flags());
        w.u32Be(4, s.keyType());
        w.u32Be(5, s.keyLen());
        if (s.isMap()) {
            w.u32Be(6, s.dataType());
            w.u32Be(7, s.dataLen());
        }
        if (s.size() > 0) {
            int d = w.beginNest(9);
            w.u32Be(1, s.size());
            w.endNest(d);
        }
        w.u32Be(10, id);
        if (s.timeoutMillis() > 0) {
            w.u64Be(11, s.timeoutMillis());
        }
        if (s.userdata() != null) {
            w.attr(13, s.userdata());
        }
        w.endMessage(m);
        return id;
    }

    /** Removes every element of a set or map. */
    public void flushSet(NfFamily f, String table, String set) {
        int m = begin(DELSETELEM, 0, f, "DELSETELEM", table, set);
        w.string(1, table);
        w.string(2, set);
        w.endMessage(m);
    }

    public void deleteSet(NfFamily f, String table, String set) {
        int m = begin(DELSET, 0, f, "DELSET", table, set);
        w.string(1, table);
        w.string(2, set);
        w.endMessage(m);
    }

    /** Adds elements; {@code setId} (0: none) names a set created earlier in this batch. */
    public void addElements(NfFamily f, String table, String set, int setId, List<NfElement> elements) {
        elements(NEWSETELEM, NLM_F_CREATE, "NEWSETELEM", f, table, set, true, setId, elements);
    }

    /**
     * Adds elements to a set this batch created ({@link #addSet}'s {@code setId}) and that did not
     * exist in the kernel before it, naming the set by that id alone: without a name the kernel
     * looks the set up among the sets new in the transaction, newest first (since Linux 6.12,
     * commit "netfilter: nf_tables: store new sets in dedicated list"), instead of comparing the
     * name with every set of the table ({@code nft_set_lookup_global}, {@code
     * net/netfilter/nf_tables_api.c}). {@code set} only describes the operation in errors.
     */
    public void addElementsToNewSet(NfFamily f, String table, String set, int setId, List<NfElement> elements) {
        if (setId <= 0) {
            throw new IllegalArgumentException("a new set is named by its batch id, not " + setId);
        }
        elements(NEWSETELEM, NLM_F_CREATE, "NEWSETELEM", f, table, set, false, setId, elements);
    }

    /** Deletes elements, given by key (and, for intervals, the closing element too). */
    public void deleteElements(NfFamily f, String table, String set, List<NfElement> elements) {
        elements(DELSETELEM, 0, "DELSETELEM", f, table, set, true, 0, elements);
    }

    private void elements(int type, int flags, String what, NfFamily f, String table, String set, boolean byName, int setId,
            List<NfElement> elements) {
        if (elements.isEmpty()) {
            throw new IllegalArgumentException("an element operation needs elements");
        }
        int op = ops.size();
        ops.add(new Op(what, f, table, set));
        int i = 0;
        while (i < elements.size()) {
            int m = message(type, flags, f, op);
            w.string(1, table);
            if (byName) {
                w.string(2, set);
            }
            if (setId != 0) {
                w.u32Be(4, setId);
            }
            int list = w.beginNest(3);
            int start = w.position();
            while (i < elements.size() && w.position() - start < MAX_ELEMENTS_BYTES) {
                elements.get(i++).encode(w);
            }
            w.endNest(list);
            w.endMessage(m);
        }
    }

    /** Appends a rule; {@code userdata} carries its comment (or null). */
    public void addRule(NfFamily f, String table, String chain, List<NfExpr> expressions, byte[] userdata) {
        int m = begin(NEWRULE, NLM_F_CREATE | NLM_F_APPEND, f, "NEWRULE", table, chain);
        w.string(1, table);
        w.string(2, chain);
        int list = w.beginNest(4);
        for (NfExpr e : expressions) {
            NfEncoding.expression(w, e);
        }
        w.endNest(list);
        if (userdata != null) {
            w.attr(7, userdata);
        }
        w.endMessage(m);
    }

    private int begin(int type, int flags, NfFamily f, String what, String table, String object) {
        int op = ops.size();
        ops.add(new Op(what, f, table, object));
        return message(type, flags, f, op);
    }

    private int message(int type, int flags, NfFamily f, int op) {
        int m = w.beginMessage(SUBSYS_NFTABLES << 8 | type, NLM_F_REQUEST | flags, 0, f.proto(), 0);
        if (messageCount == messageStarts.length) {
            messageStarts = Arrays.copyOf(messageStarts, messageCount * 2);
            messageOps = Arrays.copyOf(messageOps, messageCount * 2);
        }
        messageStarts[messageCount] = m;
        messageOps[messageCount++] = op;
        return m;
    }

    private static String familyName(NfFamily f) {
        return f == NfFamily.IPV4 ? "ip" : "ip6";
    }

    /**
     * The batch's messages as text, one a line, sequence numbers left at zero: what would be
     * sent, for debug logs and tests ({@code type=<n> flags=<hex> fam=<n> <attribute tree>}).
     */
    public String dump() {
        return NlDump.messages(encode(0, true).toByteArray(), 4);
    }

    /** Number of messages between begin and end. */
    int messages() {
        return messageCount;
    }

    /** The operation message {@code i} belongs to. */
    int operationOf(int message) {
        return messageOps[message];
    }

    /**
     * The batch's bytes: begin with sequence number {@code seq}, message {@code i} with
     * {@code seq + 1 + i}, the last one asking for an acknowledgement, then the end message
     * unless {@code commit} is false (without it the kernel checks every message and aborts: a dry
     * run).
     */
    Encoded encode(int seq, boolean commit) {
        w.setU32Host(8, seq);
        for (int i = 0; i < messageCount; i++) {
            w.setU32Host(messageStarts[i] + 8, seq + 1 + i);
        }
        if (messageCount > 0) {
            int last = messageStarts[messageCount - 1];
            w.setU16Host(last + 6, w.getU16Host(last + 6) | NLM_F_ACK);
        }
        int mark = w.position();
        if (commit) {
            int end = w.beginMessage(BATCH_END, NLM_F_REQUEST, seq + 1 + messageCount, 0, SUBSYS_NFTABLES);
            w.endMessage(end);
        }
        Encoded out = new Encoded(w.segment(), w.position());
        // The end message stays in the buffer, past the position, until the batch grows again.
        w.truncate(mark);
        return out;
    }
}
