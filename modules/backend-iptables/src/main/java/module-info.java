/**
 * Upstream kube-proxy's iptables mode (docs/upstream-behaviour.md §1, §3.1) behind the backend SPI,
 * for IPv4 and IPv6, through {@code iptables-restore --noflush -w} of either {@code iptables-nft}
 * or {@code iptables-legacy} (whichever the node already uses). Exports nothing: the engine reaches
 * it through {@link io.kproxy.backend.spi.BackendProvider}.
 */
module io.kproxy.backend.iptables {
    requires io.kproxy.backend;
    requires io.kproxy.netlink;
    requires org.slf4j;

    provides io.kproxy.backend.spi.BackendProvider with io.kproxy.backend.iptables.IptablesProvider;
}
