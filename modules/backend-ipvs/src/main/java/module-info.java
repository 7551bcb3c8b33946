/**
 * Upstream kube-proxy's ipvs mode ({@code pkg/proxy/ipvs/proxier.go}; docs/backends/ipvs.md)
 * behind the backend SPI, for IPv4 and IPv6: virtual servers with masquerading real servers, the
 * service addresses on the dummy device {@code kube-ipvs0}, the ipsets and the helper iptables
 * rules, rendered purely and diffed into an ordered list of kernel operations. The engine reaches
 * it through {@link io.kproxy.backend.spi.BackendProvider}.
 */
module io.kproxy.backend.ipvs {
    requires transitive io.kproxy.backend;
    requires io.kproxy.netlink;
    // sysctls are written from a thread inside the node's namespace
    requires io.kproxy.netns;
    requires org.slf4j;

    // The kernel port (IPVS, ipset, links and addresses, iptables-restore) and its in-memory fake:
    // exported so that the adapter to the netlink clients may live outside this module.
    exports io.kproxy.backend.ipvs.spi;

    provides io.kproxy.backend.spi.BackendProvider with io.kproxy.backend.ipvs.IpvsProvider;
}
