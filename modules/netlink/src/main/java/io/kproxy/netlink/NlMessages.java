package io.kproxy.netlink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sequence of independent netlink requests in one buffer, each with a description for error
 * reports. Unlike an nf_tables batch ({@link NfBatch}) nothing makes them atomic: generic
 * netlink, rtnetlink and ipset process each message on its own ({@code netlink_rcv_skb},
 * {@code net/netlink/af_netlink.c}), so one refused message leaves the others applied.
 * Not thread-safe.
 */
final class NlMessages {

    private final NlWriter w;
    private int[] starts = new int[64];
    private final List<String> what = new ArrayList<>();

    NlMessages(int expectedBytes) {
        w = new NlWriter(expectedBytes);
    }

    /** Starts a request message (sequence number patched when sent); write its family header and attributes on {@link #writer()}. */
    int begin(int type, int flags, String description) {
        int start = w.beginHeader(type, NfBatch.NLM_F_REQUEST | flags, 0);
        if (what.size() == starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
        }
        starts[what.size()] = start;
        what.add(description);
        return start;
    }

    void end(int start) {
        w.endMessage(start);
    }

    NlWriter writer() {
        return w;
    }

    int size() {
        return what.size();
    }

    boolean isEmpty() {
        return what.isEmpty();
    }

    String describe(int message) {
        return what.get(message);
    }

    int start(int message) {
        return starts[message];
    }

    /** Where message {@code i} ends (the next one's start, or the end of what was written). */
    int limit(int message) {
        return message + 1 < what.size() ? starts[message + 1] : w.position();
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
