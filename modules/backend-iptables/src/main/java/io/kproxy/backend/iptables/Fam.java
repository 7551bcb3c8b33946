package io.kproxy.backend.iptables;

import io.kproxy.model.IpFamily;

/**
 * The words that differ between upstream's IPv4 and IPv6 iptables proxiers
 * ({@code pkg/proxy/iptables/proxier.go}: {@code isIPv6}, the loopback CIDR of the NodePort
 * rule) and the header that separates the two families in our texts.
 *
 * @param family   the family
 * @param header   the comment line that opens this family's section of a ruleset or transaction
 * @param tool     {@code iptables} or {@code ip6tables}
 * @param loopback the loopback CIDR as upstream writes it
 */
record Fam(IpFamily family, String header, String tool, String loopback) {

    static final Fam V4 = new Fam(IpFamily.IPV4, "# IPv4", "iptables", "127.0.0.0/8");
    static final Fam V6 = new Fam(IpFamily.IPV6, "# IPv6", "ip6tables", "::1/128");

    static Fam of(IpFamily family) {
        return family == IpFamily.IPV4 ? V4 : V6;
    }

    boolean v6() {
        return family == IpFamily.IPV6;
    }
}
