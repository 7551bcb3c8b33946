package io.kproxy.backend.nftables.wire;

import io.kproxy.netlink.NfExpr;

/**
 * What a rule's selector loads into a register: an address of the table's family
 * ({@code ip saddr}, {@code ip6 daddr}: network-header offset and nft's template number), the
 * layer-4 protocol ({@code meta l4proto}) or the destination port ({@code th dport}). Immutable.
 *
 * @param kind     what is loaded
 * @param field    its data type (length, padding)
 * @param offset   network-header offset of an address
 * @param template nft's header-field template number of an address (user data of anonymous sets)
 */
record Selector(Kind kind, Field field, int offset, int template) {

    enum Kind { ADDRESS, L4PROTO, DPORT }

    NfExpr load(int reg) {
        return switch (kind) {
            case ADDRESS -> new NfExpr.Payload(reg, NfExpr.Payload.NETWORK, offset, field.len);
            case L4PROTO -> new NfExpr.Meta(NfExpr.Meta.L4PROTO, reg);
            case DPORT -> new NfExpr.Payload(reg, NfExpr.Payload.TRANSPORT, 2, 2);
        };
    }
}
