package io.kproxy.backend.nftables.wire;

import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.util.Arrays;

/**
 * The data types our sets and maps use, with nft's type numbers ({@code src/datatype.c}:
 * {@code TYPE_INTEGER} 4, {@code TYPE_IPADDR} 7, {@code TYPE_IP6ADDR} 8,
 * {@code TYPE_INET_PROTOCOL} 12, {@code TYPE_INET_SERVICE} 13) and their wire form: addresses and
 * ports in network byte order, a protocol as one byte. {@link #NUMGEN} is numgen's 32-bit
 * integer, kept in host byte order except in interval sets, where nft converts it to network
 * order ({@code byteorder hton}) so that ranges compare as bytes.
 */
enum Field {
    IPV4_ADDR(7, 4),
    IPV6_ADDR(8, 16),
    INET_PROTO(12, 1),
    INET_SERVICE(13, 2),
    NUMGEN(4, 4);

    final int type;
    final int len;

    Field(int type, int len) {
        this.type = type;
        this.len = len;
    }

    /** Bytes the field takes in a register or a concatenation: its length rounded up to 4. */
    int padded() {
        return (len + 3) & ~3;
    }

    static Field named(String nftType) {
        return switch (nftType) {
            case "ipv4_addr" -> IPV4_ADDR;
            case "ipv6_addr" -> IPV6_ADDR;
            case "inet_proto" -> INET_PROTO;
            case "inet_service" -> INET_SERVICE;
            default -> throw new Unsupported("set type " + nftType);
        };
    }

    static Field address(IpFamily family) {
        return family == IpFamily.IPV4 ? IPV4_ADDR : IPV6_ADDR;
    }

    /** The unpadded bytes of {@code text}; {@code networkOrder} matters for {@link #NUMGEN} only. */
    byte[] encode(String text, boolean networkOrder) {
        return switch (this) {
            case IPV4_ADDR, IPV6_ADDR -> address(text);
            case INET_PROTO -> new byte[] {(byte) protocol(text)};
            case INET_SERVICE -> {
                int p = Integer.parseInt(text);
                if (p < 0 || p > 65535) {
                    throw new Unsupported("port " + text);
                }
                yield new byte[] {(byte) (p >>> 8), (byte) p};
            }
            case NUMGEN -> u32(Long.parseLong(text), networkOrder);
        };
    }

    private byte[] address(String text) {
        IpAddress ip;
        try {
            ip = IpAddress.parse(text);
        } catch (IllegalArgumentException e) {
            throw new Unsupported("address " + text);
        }
        byte[] b = ip.toBytes();
        if (b.length != len) {
            throw new Unsupported("address of the other family " + text);
        }
        return b;
    }

    static int protocol(String name) {
        return switch (name) {
            case "tcp" -> 6;
            case "udp" -> 17;
            case "sctp" -> 132;
            default -> throw new Unsupported("protocol " + name);
        };
    }

    static byte[] u32(long v, boolean networkOrder) {
        if (v < 0 || v > 0xffffffffL) {
            throw new Unsupported("32-bit value " + v);
        }
        byte[] b = {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        if (!networkOrder) {
            b = new byte[] {b[3], b[2], b[1], b[0]};
        }
        return b;
    }

    /** Host-order 32-bit bytes of {@code v}: what nft compares marks, ct bits and fib results with. */
    static byte[] hostU32(int v) {
        return u32(v & 0xffffffffL, false);
    }

    /** The concatenation of {@code values} (already encoded) each padded to 4 bytes. */
    static byte[] concat(byte[][] values) {
        int n = 0;
        for (byte[] v : values) {
            n += (v.length + 3) & ~3;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] v : values) {
            System.arraycopy(v, 0, out, at, v.length);
            at += (v.length + 3) & ~3;
        }
        return out;
    }

    /** nft's type number of a concatenation: each field's type in 6 bits, first field highest. */
    static int concatType(java.util.List<Field> fields) {
        int t = 0;
        for (Field f : fields) {
            t = t << 6 | f.type;
        }
        return t;
    }

    /** Sum of the padded lengths. */
    static int concatLen(java.util.List<Field> fields) {
        return fields.size() == 1 ? fields.getFirst().len : fields.stream().mapToInt(Field::padded).sum();
    }

    /** {@code bytes + 1} as an unsigned big-endian number, or null when it overflows. */
    static byte[] increment(byte[] bytes) {
        byte[] out = Arrays.copyOf(bytes, bytes.length);
        for (int i = out.length - 1; i >= 0; i--) {
            if (++out[i] != 0) {
                return out;
            }
        }
        return null;
    }
}
