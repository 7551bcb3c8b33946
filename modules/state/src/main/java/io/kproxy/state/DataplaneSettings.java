package io.kproxy.state;

import io.kproxy.model.Cidr;
import java.util.List;

/**
 * The settings of the configuration in force that change rules, resolved by the fold from the
 * recorded {@code KubeProxyConfiguration}, so that backends never read configuration files and a
 * replay renders with the configuration the node had at the time.
 *
 * @param mode                  the proxy mode in force ({@code nftables}, {@code iptables}, ...)
 * @param masqueradeAll         masquerade all ClusterIP traffic
 * @param iptablesMasqueradeBit {@code iptables.masqueradeBit}
 * @param nftablesMasqueradeBit {@code nftables.masqueradeBit}
 * @param localhostNodePorts    {@code iptables.localhostNodePorts}
 * @param serviceCIDRs          the cluster's service ranges: the union of the
 *                              {@code networking.k8s.io/v1} ServiceCIDR objects' ranges when
 *                              the fold holds any, else the configured
 *                              {@code kproxy.serviceCIDRs}; nftables drops traffic to
 *                              unallocated addresses inside them (iptables and ipvs ignore
 *                              them, as upstream's {@code OnServiceCIDRsChanged} is a no-op
 *                              there)
 */
public record DataplaneSettings(
        String mode,
        boolean masqueradeAll,
        int iptablesMasqueradeBit,
        int nftablesMasqueradeBit,
        boolean localhostNodePorts,
        List<Cidr> serviceCIDRs) {

    public DataplaneSettings {
        if (mode == null) {
            throw new IllegalArgumentException("mode is required");
        }
        if (iptablesMasqueradeBit < 0 || iptablesMasqueradeBit > 31 || nftablesMasqueradeBit < 0 || nftablesMasqueradeBit > 31) {
            throw new IllegalArgumentException("masquerade bits are 0..31");
        }
        serviceCIDRs = List.copyOf(serviceCIDRs);
    }
}
