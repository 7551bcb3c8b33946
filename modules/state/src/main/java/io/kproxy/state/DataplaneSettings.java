package io.kproxy.state;

import io.kproxy.config.IpvsConfig;
import io.kproxy.model.Cidr;
import java.time.Duration;
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
 * @param ipvs                  the {@code ipvs} section's rule-changing fields (read in every
 *                              mode, so that {@code kproxy render --mode ipvs} shows them)
 */
public record DataplaneSettings(
        String mode,
        boolean masqueradeAll,
        int iptablesMasqueradeBit,
        int nftablesMasqueradeBit,
        boolean localhostNodePorts,
        List<Cidr> serviceCIDRs,
        Ipvs ipvs) {

    public DataplaneSettings {
        if (mode == null || ipvs == null) {
            throw new IllegalArgumentException("mode and ipvs are required");
        }
        if (iptablesMasqueradeBit < 0 || iptablesMasqueradeBit > 31 || nftablesMasqueradeBit < 0 || nftablesMasqueradeBit > 31) {
            throw new IllegalArgumentException("masquerade bits are 0..31");
        }
        serviceCIDRs = List.copyOf(serviceCIDRs);
    }

    /** The settings with upstream's {@code ipvs} defaults ({@link Ipvs#DEFAULT}), for nodes and tests that do not run ipvs mode. */
    public DataplaneSettings(String mode, boolean masqueradeAll, int iptablesMasqueradeBit, int nftablesMasqueradeBit, boolean localhostNodePorts,
            List<Cidr> serviceCIDRs) {
        this(mode, masqueradeAll, iptablesMasqueradeBit, nftablesMasqueradeBit, localhostNodePorts, serviceCIDRs, Ipvs.DEFAULT);
    }

    /**
     * The {@code ipvs} section as ipvs mode programs it (upstream's
     * {@code KubeProxyIPVSConfiguration} without the sync periods, which change no rule). Immutable;
     * valid by construction: a scheduler of {@link IpvsConfig#SCHEDULERS} (the list the
     * configuration is validated against), timeouts not negative.
     *
     * @param scheduler     the scheduler every virtual server gets; never blank (blank is {@code rr})
     * @param excludeCIDRs  virtual servers inside these are not kproxy's to delete
     * @param strictARP     set {@code arp_ignore=1} and {@code arp_announce=2}
     * @param tcpTimeout    IPVS TCP timeout; zero keeps the kernel's
     * @param tcpFinTimeout IPVS TCP FIN_WAIT timeout; zero keeps the kernel's
     * @param udpTimeout    IPVS UDP timeout; zero keeps the kernel's
     */
    public record Ipvs(String scheduler, List<Cidr> excludeCIDRs, boolean strictARP, Duration tcpTimeout, Duration tcpFinTimeout,
            Duration udpTimeout) {

        /** Upstream's defaults: {@code rr}, nothing excluded, no strict ARP, the kernel's timeouts. */
        public static final Ipvs DEFAULT = new Ipvs(IpvsConfig.DEFAULT_SCHEDULER, List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO);

        public Ipvs {
            if (scheduler == null || tcpTimeout == null || tcpFinTimeout == null || udpTimeout == null) {
                throw new IllegalArgumentException("scheduler and timeouts are required");
            }
            scheduler = scheduler.isEmpty() ? IpvsConfig.DEFAULT_SCHEDULER : scheduler;
            if (!IpvsConfig.knownScheduler(scheduler)) {
                throw new IllegalArgumentException("ipvs.scheduler \"" + scheduler + "\": " + IpvsConfig.schedulerReason());
            }
            if (tcpTimeout.isNegative() || tcpFinTimeout.isNegative() || udpTimeout.isNegative()) {
                throw new IllegalArgumentException("ipvs timeouts must not be negative");
            }
            excludeCIDRs = List.copyOf(excludeCIDRs);
        }
    }
}
