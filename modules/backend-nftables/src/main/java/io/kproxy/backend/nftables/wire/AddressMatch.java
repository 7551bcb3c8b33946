package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfElement;
import io.kproxy.netlink.NfExpr;
import io.kproxy.netlink.NfSetSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Address matches as nft 1.0.6 lowers them: a prefix on a byte boundary compares only its
 * bytes, one inside a byte is masked first ({@code bitwise}); a list of two or more prefixes is
 * an anonymous constant interval set, merged where ranges overlap or touch (nft's auto-merge),
 * with the user data nft writes for it. Pure.
 */
final class AddressMatch {

    private static final int REG1 = NfExpr.REG_1;

    private AddressMatch() {
    }

    /** {@code addr} or {@code addr/len}, equal or (negated) not. */
    static List<NfExpr> prefix(Selector s, String value, boolean negated) {
        int op = negated ? NfExpr.Cmp.NEQ : NfExpr.Cmp.EQ;
        int slash = value.indexOf('/');
        byte[] addr = s.field().encode(slash < 0 ? value : value.substring(0, slash), true);
        int prefix = slash < 0 ? addr.length * 8 : Integer.parseInt(value.substring(slash + 1));
        if (prefix == 0) {
            throw new Unsupported("zero-length prefix");
        }
        byte[] net = Prefix.network(addr, prefix);
        if (prefix % 8 == 0) {
            return List.of(new NfExpr.Payload(REG1, NfExpr.Payload.NETWORK, s.offset(), prefix / 8),
                    new NfExpr.Cmp(REG1, op, Arrays.copyOf(net, prefix / 8)));
        }
        return List.of(s.load(REG1), new NfExpr.Bitwise(REG1, REG1, Prefix.mask(addr.length, prefix), new byte[addr.length]),
                new NfExpr.Cmp(REG1, op, net));
    }

    /** The anonymous set of {@code items} (addresses or prefixes) for a lookup of {@code s}. */
    static RuleCompiler.AnonymousSet anonymousSet(Selector s, List<String> items, boolean ipv6) {
        List<byte[][]> ranges = new ArrayList<>();
        for (String item : items) {
            int slash = item.indexOf('/');
            byte[] addr = s.field().encode(slash < 0 ? item : item.substring(0, slash), true);
            int prefix = slash < 0 ? addr.length * 8 : Integer.parseInt(item.substring(slash + 1));
            ranges.add(new byte[][] {Prefix.network(addr, prefix), Prefix.last(addr, prefix)});
        }
        ranges.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
        List<byte[][]> merged = new ArrayList<>();
        for (byte[][] r : ranges) {
            if (!merged.isEmpty()) {
                byte[][] last = merged.getLast();
                byte[] after = Field.increment(last[1]);
                if (after == null || Arrays.compareUnsigned(r[0], after) <= 0) {
                    if (Arrays.compareUnsigned(r[1], last[1]) > 0) {
                        last[1] = r[1];
                    }
                    continue;
                }
            }
            merged.add(new byte[][] {r[0], r[1]});
        }
        List<NfElement> elements = new ArrayList<>();
        if (!Arrays.equals(merged.getFirst()[0], new byte[s.field().len])) {
            elements.add(NfElement.intervalEnd(new byte[s.field().len]));
        }
        for (byte[][] r : merged) {
            elements.add(NfElement.of(r[0]));
            byte[] after = Field.increment(r[1]);
            if (after != null) {
                elements.add(NfElement.intervalEnd(after));
            }
        }
        byte[] ud = new UserData().u32(UserData.SET_KEYBYTEORDER, UserData.BYTEORDER_BIG).u32(UserData.SET_MERGE_ELEMENTS, 1)
                .nest(UserData.SET_KEY_TYPEOF, UserData.payloadTypeof(ipv6 ? Payloads.DESC_IP6 : Payloads.DESC_IP, s.template())).bytes();
        int flags = NfSetSpec.ANONYMOUS | NfSetSpec.CONSTANT | NfSetSpec.INTERVAL;
        return new RuleCompiler.AnonymousSet(new NfSetSpec("__set%d", flags, s.field().type, s.field().len, 0, 0, 0, elements.size(), ud), elements);
    }
}
