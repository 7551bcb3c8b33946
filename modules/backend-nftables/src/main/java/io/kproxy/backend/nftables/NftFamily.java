package io.kproxy.backend.nftables;

import io.kproxy.model.IpFamily;

/**
 * The words that differ between upstream's IPv4 and IPv6 proxiers
 * ({@code pkg/proxy/nftables/proxier.go}: {@code ipX}, {@code ipvX_addr}, {@code noLocalhost}).
 */
record NftFamily(IpFamily family, String table, String ipX, String addrType, String noLocalhost) {

    static final String TABLE_NAME = "kube-proxy";

    static final NftFamily V4 = new NftFamily(IpFamily.IPV4, "ip " + TABLE_NAME, "ip", "ipv4_addr", "ip daddr != 127.0.0.0/8");
    static final NftFamily V6 = new NftFamily(IpFamily.IPV6, "ip6 " + TABLE_NAME, "ip6", "ipv6_addr", "ip6 daddr != ::1");

    static NftFamily of(IpFamily family) {
        return family == IpFamily.IPV4 ? V4 : V6;
    }
}
