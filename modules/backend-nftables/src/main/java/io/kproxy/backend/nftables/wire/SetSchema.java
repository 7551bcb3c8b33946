package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfSetSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A set or map as one of our declarations describes it ({@code type a . b : verdict ; flags
 * interval ; timeout 60s ; comment "…"}, or {@code typeof numgen random mod 1 : …}): how to
 * encode its keys and data, and the {@code NFT_MSG_NEWSET} that creates it with the user data
 * nft 1.0.6 writes for the same declaration (so that {@code nft list} prints it the same way).
 * Only the declarations this backend writes are understood; anything else is {@link Unsupported}.
 * Immutable.
 *
 * @param key      key fields
 * @param verdict  a verdict map
 * @param data     data fields of a data map (empty otherwise)
 * @param interval an interval set (ranges as keys)
 * @param spec     the set to create
 */
record SetSchema(List<Field> key, boolean verdict, List<Field> data, boolean interval, NfSetSpec spec) {

    SetSchema {
        key = List.copyOf(key);
        data = List.copyOf(data);
    }

    boolean isMap() {
        return verdict || !data.isEmpty();
    }

    /** Parses the body between the braces of {@code add set|map <family> <table> <name> { … }}. */
    static SetSchema parse(String name, boolean ipv6, String body) {
        List<Field> key = new ArrayList<>();
        List<Field> data = new ArrayList<>();
        boolean verdict = false;
        boolean typeof = false;
        int flags = 0;
        long timeout = 0;
        String comment = null;
        UserData dataTypeof = null;
        for (String part : Literal.split(body, " ; ")) {
            String p = part.strip();
            if (p.endsWith(" ;")) {
                p = p.substring(0, p.length() - 2).strip();
            }
            if (p.isEmpty()) {
                continue;
            }
            if (p.startsWith("type ")) {
                String[] kv = Literal.split(p.substring(5), " : ", true);
                for (String t : Literal.split(kv[0], " . ")) {
                    key.add(Field.named(t.strip()));
                }
                if (kv.length == 2) {
                    if (!kv[1].strip().equals("verdict")) {
                        throw new Unsupported("map data " + kv[1]);
                    }
                    verdict = true;
                }
            } else if (p.startsWith("typeof ")) {
                typeof = true;
                String[] kv = Literal.split(p.substring(7), " : ", true);
                if (!kv[0].strip().equals("numgen random mod 1") || kv.length != 2) {
                    throw new Unsupported("typeof " + p);
                }
                key.add(Field.NUMGEN);
                String d = kv[1].strip();
                if (d.equals("verdict")) {
                    verdict = true;
                } else {
                    dataTypeof = dispatchData(d, ipv6, data);
                }
            } else if (p.startsWith("flags ")) {
                for (String f : p.substring(6).split(",")) {
                    flags |= switch (f.strip()) {
                        case "interval" -> NfSetSpec.INTERVAL;
                        case "timeout" -> NfSetSpec.TIMEOUT;
                        case "dynamic" -> NfSetSpec.EVAL;
                        default -> throw new Unsupported("set flag " + f);
                    };
                }
            } else if (p.startsWith("timeout ") && p.endsWith("s")) {
                timeout = Long.parseLong(p.substring(8, p.length() - 1)) * 1000;
            } else if (p.startsWith("comment \"") && p.endsWith("\"")) {
                comment = p.substring(9, p.length() - 1);
            } else {
                throw new Unsupported("set declaration " + p);
            }
        }
        if (key.isEmpty()) {
            throw new Unsupported("set without a type");
        }
        boolean interval = (flags & NfSetSpec.INTERVAL) != 0;
        boolean map = verdict || !data.isEmpty();
        if (map) {
            flags |= NfSetSpec.MAP;
        }
        UserData ud = new UserData();
        // What nft 1.0.6 stores for these declarations (seen with nft --debug=mnl).
        if (typeof) {
            ud.u32(UserData.SET_KEYBYTEORDER, UserData.BYTEORDER_HOST);
        } else {
            ud.u32(UserData.SET_KEYBYTEORDER, key.size() > 1 ? UserData.BYTEORDER_INVALID : UserData.BYTEORDER_BIG);
        }
        if (map) {
            ud.u32(UserData.SET_DATABYTEORDER, UserData.BYTEORDER_INVALID);
        }
        if (typeof) {
            ud.nest(UserData.SET_KEY_TYPEOF, new UserData().u32(UserData.TYPEOF_EXPR, UserData.EXPR_NUMGEN)
                    .nest(UserData.TYPEOF_DATA, new UserData().u32(0, 1).u32(1, 1).u32(2, 0)));
            ud.nest(UserData.SET_DATA_TYPEOF, verdict ? new UserData().u32(UserData.TYPEOF_EXPR, UserData.EXPR_VERDICT)
                    .raw(UserData.TYPEOF_DATA, new byte[0]) : dataTypeof);
        } else if (key.size() > 1) {
            ud.nest(UserData.SET_KEY_TYPEOF, new UserData().u32(UserData.TYPEOF_EXPR, UserData.EXPR_CONCAT).raw(UserData.TYPEOF_DATA, new byte[0]));
        }
        if (map) {
            ud.u32(UserData.SET_DATA_INTERVAL, 0);
        }
        if (comment != null) {
            ud.string(UserData.SET_COMMENT, comment);
        }
        int dataType = verdict ? NfSetSpec.VERDICT_DATA : data.isEmpty() ? 0 : Field.concatType(data);
        int dataLen = verdict || data.isEmpty() ? 0 : Field.concatLen(data);
        NfSetSpec spec = new NfSetSpec(name, flags, Field.concatType(key), Field.concatLen(key), dataType, dataLen, timeout, 0, ud.bytes());
        return new SetSchema(key, verdict, data, interval, spec);
    }

    /** {@code ip daddr . tcp dport}: an address and a port, the data of an endpoint dispatch map. */
    private static UserData dispatchData(String d, boolean ipv6, List<Field> data) {
        String[] parts = Literal.split(d, " . ");
        String ipX = ipv6 ? "ip6" : "ip";
        if (parts.length != 2 || !parts[0].equals(ipX + " daddr") || !parts[1].endsWith(" dport")) {
            throw new Unsupported("typeof data " + d);
        }
        int protoDesc = switch (parts[1].substring(0, parts[1].length() - " dport".length())) {
            case "tcp" -> Payloads.DESC_TCP;
            case "udp" -> Payloads.DESC_UDP;
            case "sctp" -> Payloads.DESC_SCTP;
            default -> throw new Unsupported("typeof data " + d);
        };
        data.add(ipv6 ? Field.IPV6_ADDR : Field.IPV4_ADDR);
        data.add(Field.INET_SERVICE);
        UserData fields = new UserData()
                .nest(0, UserData.payloadTypeof(ipv6 ? Payloads.DESC_IP6 : Payloads.DESC_IP, ipv6 ? Payloads.IP6_DADDR : Payloads.IP_DADDR))
                .nest(1, UserData.payloadTypeof(protoDesc, Payloads.TH_DPORT));
        return new UserData().u32(UserData.TYPEOF_EXPR, UserData.EXPR_CONCAT).nest(UserData.TYPEOF_DATA, fields);
    }
}
