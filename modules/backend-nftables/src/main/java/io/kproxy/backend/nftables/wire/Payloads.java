package io.kproxy.backend.nftables.wire;

/**
 * Header fields our rules match: their offsets for the kernel's {@code payload} expression and
 * the numbers nft keeps in user data to print them back ({@code src/proto.c}: protocol
 * descriptions and header field templates).
 */
final class Payloads {

    // nft's proto_desc ids
    static final int DESC_UDP = 6;
    static final int DESC_TCP = 8;
    static final int DESC_SCTP = 10;
    static final int DESC_IP = 12;
    static final int DESC_IP6 = 13;
    // nft's header field templates
    static final int IP_SADDR = 11;
    static final int IP_DADDR = 12;
    static final int IP6_SADDR = 8;
    static final int IP6_DADDR = 9;
    static final int TH_DPORT = 2;

    private Payloads() {
    }

    /** Network-header offset of {@code saddr}/{@code daddr} in IPv4 ({@code iphdr}) or IPv6 ({@code ipv6hdr}). */
    static int addressOffset(boolean ipv6, boolean source) {
        if (ipv6) {
            return source ? 8 : 24;
        }
        return source ? 12 : 16;
    }

    /** nft's template number of that field. */
    static int addressTemplate(boolean ipv6, boolean source) {
        if (ipv6) {
            return source ? IP6_SADDR : IP6_DADDR;
        }
        return source ? IP_SADDR : IP_DADDR;
    }
}
