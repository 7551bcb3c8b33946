package io.kproxy.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * Netlink messages as text, one message a line: {@code type=<n> flags=<hex> fam=<n>} and the
 * attribute tree, {@code <type>=<hex value>} or {@code <type>{…}} for a nested one (the form of
 * {@code nft --debug=mnl} output once flattened), for logs and tests. Pure.
 */
final class NlDump {

    private NlDump() {
    }

    static String messages(byte[] bytes, int headerExtra) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at + 16 <= bytes.length) {
            int len = b.getInt(at);
            int type = b.getShort(at + 4) & 0xffff;
            int flags = b.getShort(at + 6) & 0xffff;
            int family = at + 16 < bytes.length ? bytes[at + 16] & 0xff : 0;
            out.append("type=").append(type).append(" flags=").append(Integer.toHexString(flags)).append(" fam=").append(family);
            int attrs = at + 16 + headerExtra;
            if (attrs < at + len) {
                out.append(' ');
                attributes(b, attrs, at + len, out);
            }
            out.append('\n');
            at += (len + 3) & ~3;
            if (len < 16) {
                break;
            }
        }
        return out.toString();
    }

    private static void attributes(ByteBuffer b, int from, int to, StringBuilder out) {
        int at = from;
        boolean first = true;
        while (at + 4 <= to) {
            int len = b.getShort(at) & 0xffff;
            int type = b.getShort(at + 2) & 0xffff;
            if (len < 4 || at + len > to) {
                break;
            }
            if (!first) {
                out.append(' ');
            }
            first = false;
            out.append(type & 0x3fff);
            if ((type & NlWriter.NLA_F_NESTED) != 0) {
                out.append('{');
                attributes(b, at + 4, at + len, out);
                out.append('}');
            } else {
                byte[] v = new byte[len - 4];
                b.get(at + 4, v);
                out.append('=').append(HexFormat.of().formatHex(v));
            }
            at += (len + 3) & ~3;
        }
    }
}
