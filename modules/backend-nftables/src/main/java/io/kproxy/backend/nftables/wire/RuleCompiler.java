package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfElement;
import io.kproxy.netlink.NfExpr;
import io.kproxy.netlink.NfSetSpec;
import io.kproxy.netlink.NfVerdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Compiles the rules this backend writes ({@code BaseRuleset}, {@code FragmentRenderer}) from
 * nft syntax into kernel expressions, lowering every statement the way nft 1.0.6 does (seen with
 * {@code nft --debug=netlink}), because {@code nft list} recognises statements by the
 * expressions they became: a prefix on a byte boundary loads only its bytes, a one-element
 * anonymous set is a plain comparison, concatenations fill consecutive 32-bit registers, marks
 * and conntrack bits are compared in host byte order. Anything outside that grammar is
 * {@link Unsupported}. Pure.
 */
final class RuleCompiler {

    /** An anonymous set a rule needs, created in the same batch just before it. */
    record AnonymousSet(NfSetSpec spec, List<NfElement> elements) {
    }

    /**
     * The compiled rule. Lookups of anonymous set {@code i} carry set id {@code -(i + 1)} until
     * the batch assigns the real one ({@link #resolve}).
     */
    record Compiled(List<NfExpr> expressions, byte[] userdata, List<AnonymousSet> sets) {

        List<NfExpr> resolve(int[] setIds) {
            List<NfExpr> out = new ArrayList<>(expressions.size());
            for (NfExpr e : expressions) {
                if (e instanceof NfExpr.Lookup l && l.setId() < 0) {
                    out.add(new NfExpr.Lookup(l.set(), setIds[-l.setId() - 1], l.sreg(), l.dreg(), l.inverted()));
                } else {
                    out.add(e);
                }
            }
            return out;
        }
    }

    private static final int REG1 = NfExpr.REG_1;
    private static final byte[] ZERO32 = new byte[4];
    private static final int CT_STATE_NEW = 0x8; // NF_CT_STATE_BIT(IP_CT_NEW)
    private static final int IPS_DST_NAT = 0x20; // IPS_DST_NAT_BIT 5
    private static final int RTN_LOCAL = 2;
    private static final int IFNAMSIZ = 16;

    private final boolean ipv6;
    private final int family;
    private final Function<String, SetSchema> sets;
    private final List<NfExpr> out = new ArrayList<>();
    private final List<AnonymousSet> anonymous = new ArrayList<>();
    private byte[] userdata;

    private RuleCompiler(boolean ipv6, Function<String, SetSchema> sets) {
        this.ipv6 = ipv6;
        this.family = ipv6 ? 10 : 2;
        this.sets = sets;
    }

    /** Compiles {@code rule} of a table of family {@code ipv6 ? ip6 : ip}; {@code sets} knows the named sets. */
    static Compiled compile(String rule, boolean ipv6, Function<String, SetSchema> sets) {
        RuleCompiler c = new RuleCompiler(ipv6, sets);
        Tokens t = new Tokens(rule);
        while (t.more()) {
            c.statement(t);
        }
        if (c.out.isEmpty()) {
            throw new Unsupported("empty rule");
        }
        return new Compiled(List.copyOf(c.out), c.userdata, List.copyOf(c.anonymous));
    }

    private void statement(Tokens t) {
        String w = t.peek();
        switch (w) {
            case "ip", "ip6", "th" -> selectorStatement(t);
            case "meta" -> {
                if (t.peek(2).equals(".")) {
                    selectorStatement(t);
                } else {
                    t.next();
                    t.expect("l4proto");
                    out.add(new NfExpr.Meta(NfExpr.Meta.L4PROTO, REG1));
                    out.add(new NfExpr.Cmp(REG1, NfExpr.Cmp.EQ, new byte[] {(byte) Field.protocol(t.next())}));
                }
            }
            case "ct" -> {
                t.next();
                String key = t.next();
                if (key.equals("state")) {
                    t.expect("new");
                    ctBit(NfExpr.Ct.STATE, CT_STATE_NEW);
                } else if (key.equals("status")) {
                    t.expect("dnat");
                    ctBit(NfExpr.Ct.STATUS, IPS_DST_NAT);
                } else {
                    throw new Unsupported("ct " + key);
                }
            }
            case "fib" -> {
                t.next();
                String which = t.next();
                int flags = switch (which) {
                    case "saddr" -> NfExpr.Fib.SADDR;
                    case "daddr" -> NfExpr.Fib.DADDR;
                    default -> throw new Unsupported("fib " + which);
                };
                t.expect("type");
                t.expect("local");
                out.add(new NfExpr.Fib(NfExpr.Fib.ADDRTYPE, flags, REG1));
                out.add(new NfExpr.Cmp(REG1, NfExpr.Cmp.EQ, Field.hostU32(RTN_LOCAL)));
            }
            case "iifname" -> {
                t.next();
                int op = t.accept("!=") ? NfExpr.Cmp.NEQ : NfExpr.Cmp.EQ;
                String name = t.quoted();
                byte[] value;
                if (name.endsWith("*")) {
                    value = name.substring(0, name.length() - 1).getBytes(StandardCharsets.US_ASCII);
                } else {
                    value = Arrays.copyOf(name.getBytes(StandardCharsets.US_ASCII), IFNAMSIZ);
                }
                if (value.length == 0 || value.length > IFNAMSIZ) {
                    throw new Unsupported("interface name " + name);
                }
                out.add(new NfExpr.Meta(NfExpr.Meta.IIFNAME, REG1));
                out.add(new NfExpr.Cmp(REG1, op, value));
            }
            case "mark" -> mark(t);
            case "numgen" -> {
                t.next();
                int mod = numgenMod(t);
                t.expect("vmap");
                String set = setRef(t.next());
                out.add(new NfExpr.Numgen(REG1, mod, NfExpr.Numgen.RANDOM, 0));
                out.add(new NfExpr.Lookup(set, 0, REG1, NfExpr.VERDICT, false));
            }
            case "dnat" -> dnat(t);
            case "masquerade" -> {
                t.next();
                out.add(new NfExpr.Masq(t.accept("fully-random") ? NfExpr.Masq.FULLY_RANDOM : 0));
            }
            case "reject" -> {
                t.next();
                // icmp port-unreachable (3), icmpv6 port-unreachable (4): nft's default reject.
                out.add(new NfExpr.Reject(0, ipv6 ? 4 : 3));
            }
            case "update" -> {
                t.next();
                String set = setRef(t.next());
                t.expect("{");
                Selector s = selector(t);
                t.expect("}");
                if (s.kind() != Selector.Kind.ADDRESS) {
                    throw new Unsupported("update key");
                }
                out.add(s.load(REG1));
                out.add(new NfExpr.Dynset(set, 0, NfExpr.Dynset.UPDATE, REG1));
            }
            case "jump", "goto" -> {
                t.next();
                String chain = t.next();
                out.add(new NfExpr.Verdict(w.equals("jump") ? NfVerdict.jump(chain) : NfVerdict.goTo(chain)));
            }
            case "drop", "accept", "return" -> out.add(new NfExpr.Verdict(Verdicts.parse(t.next())));
            case "comment" -> {
                t.next();
                userdata = UserData.comment(t.quoted());
                if (t.more()) {
                    throw new Unsupported("words after the comment");
                }
            }
            default -> throw new Unsupported("statement " + w);
        }
    }

    private void ctBit(int key, int bit) {
        out.add(new NfExpr.Ct(key, REG1));
        out.add(new NfExpr.Bitwise(REG1, REG1, Field.hostU32(bit), ZERO32.clone()));
        out.add(new NfExpr.Cmp(REG1, NfExpr.Cmp.NEQ, ZERO32.clone()));
    }

    private void mark(Tokens t) {
        t.next();
        if (t.accept("and")) {
            int bits = hex(t.next());
            t.expect("==");
            int value = Integer.decode(t.next());
            out.add(new NfExpr.Meta(NfExpr.Meta.MARK, REG1));
            out.add(new NfExpr.Bitwise(REG1, REG1, Field.hostU32(bits), ZERO32.clone()));
            out.add(new NfExpr.Cmp(REG1, NfExpr.Cmp.EQ, Field.hostU32(value)));
            return;
        }
        t.expect("set");
        t.expect("mark");
        String op = t.next();
        int bits = hex(t.next());
        int mask = switch (op) {
            case "or" -> ~bits;
            case "xor" -> -1;
            default -> throw new Unsupported("mark " + op);
        };
        out.add(new NfExpr.Meta(NfExpr.Meta.MARK, REG1));
        out.add(new NfExpr.Bitwise(REG1, REG1, Field.hostU32(mask), Field.hostU32(bits)));
        out.add(new NfExpr.MetaSet(NfExpr.Meta.MARK, REG1));
    }

    private static int hex(String s) {
        if (!s.startsWith("0x")) {
            throw new Unsupported("number " + s);
        }
        return (int) Long.parseLong(s.substring(2), 16);
    }

    private static int numgenMod(Tokens t) {
        t.expect("random");
        t.expect("mod");
        long mod = Long.parseLong(t.next());
        if (mod < 1 || mod > 0xffffffffL) {
            throw new Unsupported("numgen modulus " + mod);
        }
        return (int) mod;
    }

    private void dnat(Tokens t) {
        t.next();
        if (t.accept("to")) {
            String target = t.next();
            int colon = target.lastIndexOf(':');
            if (colon < 0) {
                throw new Unsupported("dnat without a port");
            }
            String host = target.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            Field addr = ipv6 ? Field.IPV6_ADDR : Field.IPV4_ADDR;
            out.add(new NfExpr.Immediate(REG1, addr.encode(host, true)));
            out.add(new NfExpr.Immediate(REG1 + 1, Field.INET_SERVICE.encode(target.substring(colon + 1), true)));
            out.add(new NfExpr.Nat(NfExpr.Nat.DNAT, family, REG1, REG1 + 1, NfExpr.Nat.PROTO_SPECIFIED));
            return;
        }
        t.expect(ipv6 ? "ip6" : "ip");
        t.expect("to");
        t.expect("numgen");
        int mod = numgenMod(t);
        // The slot of a shared endpoint map (NftDispatch): NFTA_NG_OFFSET, added by the kernel to the result.
        long offset = t.accept("offset") ? Long.parseLong(t.next()) : 0;
        if (offset < 0 || offset + Integer.toUnsignedLong(mod) - 1 > 0xffffffffL) {
            throw new Unsupported("numgen offset " + offset);
        }
        t.expect("map");
        String name = setRef(t.next());
        SetSchema m = sets.apply(name);
        if (m == null || !m.interval() || m.data().size() != 2) {
            throw new Unsupported("dnat map @" + name + " is not an endpoint dispatch map we declared");
        }
        out.add(new NfExpr.Numgen(REG1, mod, NfExpr.Numgen.RANDOM, (int) offset));
        // An interval map compares keys as big-endian bytes; numgen writes host order.
        out.add(new NfExpr.Byteorder(REG1, REG1, NfExpr.Byteorder.HTON, 4, 4));
        out.add(new NfExpr.Lookup(name, 0, REG1, REG1, false));
        out.add(new NfExpr.Nat(NfExpr.Nat.DNAT, family, REG1, NfExpr.reg32(m.data().getFirst().padded() / 4), 0));
    }

    private static String setRef(String word) {
        if (!word.startsWith("@") || word.length() < 2) {
            throw new Unsupported("expected @set, found " + word);
        }
        return word.substring(1);
    }

    /** A match or lookup that starts with a selector: {@code ip daddr X}, {@code ip saddr != { … }}, {@code a . b . c vmap @m}. */
    private void selectorStatement(Tokens t) {
        Selector first = selector(t);
        if (t.peek().equals(".")) {
            List<Selector> parts = new ArrayList<>(List.of(first));
            while (t.accept(".")) {
                parts.add(selector(t));
            }
            int word = 0;
            for (Selector s : parts) {
                out.add(s.load(NfExpr.reg32(word)));
                word += s.field().padded() / 4;
            }
            if (t.accept("vmap")) {
                out.add(new NfExpr.Lookup(setRef(t.next()), 0, REG1, NfExpr.VERDICT, false));
            } else {
                out.add(new NfExpr.Lookup(setRef(t.next()), 0, REG1, -1, false));
            }
            return;
        }
        if (first.kind() != Selector.Kind.ADDRESS) {
            throw new Unsupported("match on " + first.kind());
        }
        boolean negated = t.accept("!=");
        String v = t.next();
        if (v.startsWith("@")) {
            out.add(first.load(REG1));
            out.add(new NfExpr.Lookup(setRef(v), 0, REG1, -1, negated));
        } else if (v.equals("{")) {
            List<String> items = new ArrayList<>();
            while (!t.peek().equals("}")) {
                String item = t.next();
                if (!item.equals(",")) {
                    items.add(item);
                }
            }
            t.expect("}");
            if (items.size() == 1) {
                out.addAll(AddressMatch.prefix(first, items.getFirst(), negated));
            } else {
                out.add(first.load(REG1));
                anonymous.add(AddressMatch.anonymousSet(first, items, ipv6));
                out.add(new NfExpr.Lookup("__set%d", -anonymous.size(), REG1, -1, negated));
            }
        } else {
            out.addAll(AddressMatch.prefix(first, v, negated));
        }
    }

    private Selector selector(Tokens t) {
        String w = t.next();
        switch (w) {
            case "ip", "ip6" -> {
                if (w.equals("ip6") != ipv6) {
                    throw new Unsupported(w + " match in a table of the other family");
                }
                String which = t.next();
                boolean source = switch (which) {
                    case "saddr" -> true;
                    case "daddr" -> false;
                    default -> throw new Unsupported(w + " " + which);
                };
                return new Selector(Selector.Kind.ADDRESS, ipv6 ? Field.IPV6_ADDR : Field.IPV4_ADDR, Payloads.addressOffset(ipv6, source),
                        Payloads.addressTemplate(ipv6, source));
            }
            case "meta" -> {
                t.expect("l4proto");
                return new Selector(Selector.Kind.L4PROTO, Field.INET_PROTO, 0, 0);
            }
            case "th" -> {
                t.expect("dport");
                return new Selector(Selector.Kind.DPORT, Field.INET_SERVICE, 2, Payloads.TH_DPORT);
            }
            default -> throw new Unsupported("selector " + w);
        }
    }
}
