/**
 * Upstream kube-proxy's nftables mode (docs/upstream-behaviour.md §1, §3.2) behind the backend SPI.
 * Exports nothing: the engine reaches it through {@link io.kproxy.backend.spi.BackendProvider}.
 */
module io.kproxy.backend.nftables {
    requires io.kproxy.backend;
    requires io.kproxy.netlink;
    requires org.slf4j;

    provides io.kproxy.backend.spi.BackendProvider with io.kproxy.backend.nftables.NftablesProvider;
}
