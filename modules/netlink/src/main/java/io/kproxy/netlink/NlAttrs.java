package io.kproxy.netlink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The attributes of one netlink message or nest, read from a reply: by type (the nested and
 * byte-order flags masked off), repeated types kept in order. Integers of generic netlink and
 * rtnetlink are in host order, ports and ipset's values in network order; the caller says which.
 * Pure; an absent attribute reads as the default given.
 */
final class NlAttrs {

    private final ByteBuffer b;
    private final Map<Integer, List<int[]>> at = new HashMap<>();

    private NlAttrs(ByteBuffer b) {
        this.b = b;
    }

    /** The attributes between {@code from} and {@code to} of {@code bytes}. */
    static NlAttrs parse(byte[] bytes, int from, int to) {
        NlAttrs a = new NlAttrs(ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()));
        int i = from;
        while (i + 4 <= to) {
            int len = a.b.getShort(i) & 0xffff;
            int type = a.b.getShort(i + 2) & 0x3fff;
            if (len < 4 || i + len > to) {
                break;
            }
            a.at.computeIfAbsent(type, k -> new ArrayList<>()).add(new int[] {i + 4, len - 4});
            i += (len + 3) & ~3;
        }
        return a;
    }

    boolean has(int type) {
        return at.containsKey(type);
    }

    private int[] first(int type) {
        List<int[]> l = at.get(type);
        return l == null ? null : l.get(0);
    }

    int u8(int type, int absent) {
        int[] r = first(type);
        return r == null || r[1] < 1 ? absent : b.get(r[0]) & 0xff;
    }

    int u16(int type, int absent) {
        int[] r = first(type);
        return r == null || r[1] < 2 ? absent : b.getShort(r[0]) & 0xffff;
    }

    int u32(int type, int absent) {
        int[] r = first(type);
        return r == null || r[1] < 4 ? absent : b.getInt(r[0]);
    }

    int be16(int type, int absent) {
        int[] r = first(type);
        return r == null || r[1] < 2 ? absent : (b.get(r[0]) & 0xff) << 8 | b.get(r[0] + 1) & 0xff;
    }

    int be32(int type, int absent) {
        int[] r = first(type);
        return r == null || r[1] < 4 ? absent : Integer.reverseBytes(b.order() == ByteOrder.BIG_ENDIAN ? Integer.reverseBytes(b.getInt(r[0])) : b.getInt(r[0]));
    }

    byte[] bytes(int type) {
        int[] r = first(type);
        if (r == null) {
            return new byte[0];
        }
        byte[] v = new byte[r[1]];
        b.get(r[0], v);
        return v;
    }

    /** A NUL-terminated string attribute, without the NUL; "" when absent. */
    String string(int type) {
        byte[] v = bytes(type);
        int n = v.length;
        while (n > 0 && v[n - 1] == 0) {
            n--;
        }
        return new String(v, 0, n, StandardCharsets.UTF_8);
    }

    /** The first nest of {@code type} (empty when absent). */
    NlAttrs nested(int type) {
        int[] r = first(type);
        return r == null ? parse(new byte[0], 0, 0) : parse(b.array(), r[0], r[0] + r[1]);
    }

    /** Every attribute of {@code type}, each read as a nest, in order. */
    List<NlAttrs> all(int type) {
        List<NlAttrs> out = new ArrayList<>();
        for (int[] r : at.getOrDefault(type, List.of())) {
            out.add(parse(b.array(), r[0], r[0] + r[1]));
        }
        return out;
    }
}
