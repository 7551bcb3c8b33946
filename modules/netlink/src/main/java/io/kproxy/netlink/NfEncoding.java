package io.kproxy.netlink;

/**
 * Writes {@link NfExpr}s as the kernel reads them: {@code NFTA_LIST_ELEM { NFTA_EXPR_NAME,
 * NFTA_EXPR_DATA { ... } }}, each attribute number as in
 * {@code include/uapi/linux/netfilter/nf_tables.h}, 32-bit values big-endian. Pure.
 */
final class NfEncoding {

    private NfEncoding() {
    }

    static void expression(NlWriter w, NfExpr e) {
        int elem = w.beginNest(1); // NFTA_LIST_ELEM
        w.string(1, e.name()); // NFTA_EXPR_NAME
        int data = w.beginNest(2); // NFTA_EXPR_DATA
        switch (e) {
            case NfExpr.Payload p -> {
                w.u32Be(1, p.dreg());
                w.u32Be(2, p.base());
                w.u32Be(3, p.offset());
                w.u32Be(4, p.len());
            }
            case NfExpr.Meta m -> {
                w.u32Be(2, m.key());
                w.u32Be(1, m.dreg());
            }
            case NfExpr.MetaSet m -> {
                w.u32Be(2, m.key());
                w.u32Be(3, m.sreg());
            }
            case NfExpr.Cmp c -> {
                w.u32Be(1, c.sreg());
                w.u32Be(2, c.op());
                value(w, 3, c.data());
            }
            case NfExpr.Bitwise b -> {
                w.u32Be(1, b.sreg());
                w.u32Be(2, b.dreg());
                w.u32Be(3, b.mask().length);
                value(w, 4, b.mask());
                value(w, 5, b.xor());
            }
            case NfExpr.Lookup l -> {
                w.u32Be(2, l.sreg());
                if (l.dreg() >= 0) {
                    w.u32Be(3, l.dreg());
                }
                w.string(1, l.set());
                if (l.setId() != 0) {
                    w.u32Be(4, l.setId());
                }
                if (l.inverted()) {
                    w.u32Be(5, 1); // NFT_LOOKUP_F_INV
                }
            }
            case NfExpr.Verdict v -> {
                w.u32Be(1, NfExpr.VERDICT);
                int d = w.beginNest(2);
                v.verdict().encode(w);
                w.endNest(d);
            }
            case NfExpr.Immediate i -> {
                w.u32Be(1, i.dreg());
                value(w, 2, i.value());
            }
            case NfExpr.Numgen n -> {
                w.u32Be(1, n.dreg());
                w.u32Be(2, n.modulus());
                w.u32Be(3, n.type());
                w.u32Be(4, n.offset());
            }
            case NfExpr.Byteorder b -> {
                w.u32Be(1, b.sreg());
                w.u32Be(2, b.dreg());
                w.u32Be(3, b.op());
                w.u32Be(4, b.len());
                w.u32Be(5, b.size());
            }
            case NfExpr.Nat n -> {
                w.u32Be(1, n.type());
                w.u32Be(2, n.family());
                w.u32Be(3, n.regAddr());
                if (n.regProto() > 0) {
                    w.u32Be(5, n.regProto());
                }
                if (n.flags() != 0) {
                    w.u32Be(7, n.flags());
                }
            }
            case NfExpr.Masq m -> {
                if (m.flags() != 0) {
                    w.u32Be(1, m.flags());
                }
            }
            case NfExpr.Fib f -> {
                w.u32Be(3, f.flags());
                w.u32Be(2, f.result());
                w.u32Be(1, f.dreg());
            }
            case NfExpr.Ct c -> {
                w.u32Be(2, c.key());
                w.u32Be(1, c.dreg());
            }
            case NfExpr.Dynset d -> {
                w.u32Be(4, d.sregKey());
                w.u32Be(3, d.op());
                w.string(1, d.set());
                if (d.setId() != 0) {
                    w.u32Be(2, d.setId());
                }
            }
            case NfExpr.Reject r -> {
                w.u32Be(1, r.type());
                w.u8(2, r.code());
            }
        }
        w.endNest(data);
        w.endNest(elem);
    }

    /** {@code type { NFTA_DATA_VALUE = bytes }}. */
    static void value(NlWriter w, int type, byte[] bytes) {
        int d = w.beginNest(type);
        w.attr(1, bytes);
        w.endNest(d);
    }
}
