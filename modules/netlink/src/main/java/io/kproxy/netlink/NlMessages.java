package io.kproxy.netlink;

import java.util.Arrays;
import java.util.function.IntFunction;

/**
 * A sequence of independent netlink requests in one buffer, each described for error reports
 * only when one is refused (a full sync sends tens of thousands). Unlike an nf_tables batch ({@link NfBatch}) nothing makes them atomic: generic
 * netlink, rtnetlink and ipset process each message on its own ({@code netlink_rcv_skb},
 * {@code net/netlink/af_netlink.c}), so one refused message leaves the others applied.
 * Not thread-safe.
 */
final class NlMessages {

    private final NlWriter w;
    private final IntFunction<String> describe;
    private int[] starts = new int[64];
    private int count;

    /** {@code describe} names message {@code i} (from 0) in errors, e.g. {@code NEW_SERVICE TCP 10.96.0.10:80}. */
    NlMessages(int expectedBytes, IntFunction<String> describe) {
        w = new NlWriter(expectedBytes);
        this.describe = describe;
    }

    /** Starts a request message (sequence number patched when sent); write its family header and attributes on {@link #writer()}. */
    int begin(int type, int flags) {
        int start = w.beginHeader(type, NfBatch.NLM_F_REQUEST | flags, 0);
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
        }
        starts[count++] = start;
        return start;
    }

    void end(int start) {
        w.endMessage(start);
    }

    NlWriter writer() {
        return w;
    }

    int size() {
        return count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    String describe(int message) {
        return describe.apply(message);
    }

    int start(int message) {
        return starts[message];
    }

    /** Where message {@code i} ends (the next one's start, or the end of what was written). */
    int limit(int message) {
        return message + 1 < count ? starts[message + 1] : w.position();
    }

    /** The messages as text, one a line ({@link NlDump}), {@code headerExtra} bytes of family header skipped. */
    String dump(int headerExtra) {
        return NlDump.messages(w.bytes(), headerExtra);
    }

    /** The bytes written, for tests. */
    byte[] bytes() {
        return w.bytes();
    }
}
