package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.config.IpvsConfig;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.state.DataplaneSettings;
import java.time.Duration;
import java.util.List;

/**
 * The {@code ipvs} section of the configuration as the backend uses it (upstream's
 * {@code KubeProxyIPVSConfiguration}): every render reads it from the node's settings
 * ({@link #of}: {@code NodeState.settings().ipvs()}, which the fold resolves from the recorded
 * configuration), so a replay renders with the section the node had. Immutable; validated here as
 * upstream's {@code pkg/proxy/apis/config/validation} and {@code NewProxier} do, against the list
 * the configuration is validated against ({@link IpvsConfig#SCHEDULERS}), so that no plan is ever
 * rendered with a scheduler the mode does not know.
 *
 * @param scheduler     one of {@link IpvsConfig#SCHEDULERS}; blank means {@code rr} (upstream's default)
 * @param excludeCIDRs  virtual servers inside these are never deleted by kproxy
 * @param strictARP     set {@code arp_ignore=1} and {@code arp_announce=2}
 * @param tcpTimeout    IPVS TCP timeout; zero keeps the kernel's
 * @param tcpFinTimeout IPVS TCP FIN timeout; zero keeps the kernel's
 * @param udpTimeout    IPVS UDP timeout; zero keeps the kernel's
 */
record IpvsSettings(String scheduler, List<Cidr> excludeCIDRs, boolean strictARP, Duration tcpTimeout, Duration tcpFinTimeout,
        Duration udpTimeout) {

    /** Upstream's defaults: {@code rr}, nothing excluded, no strict ARP, the kernel's timeouts. */
    static final IpvsSettings DEFAULT = of(DataplaneSettings.Ipvs.DEFAULT);

    IpvsSettings {
        if (scheduler == null || excludeCIDRs == null || tcpTimeout == null || tcpFinTimeout == null || udpTimeout == null) {
            throw new IllegalArgumentException("no component may be null");
        }
        scheduler = scheduler.isEmpty() ? IpvsConfig.DEFAULT_SCHEDULER : scheduler;
        if (!IpvsConfig.knownScheduler(scheduler)) {
            throw new IllegalArgumentException("ipvs.scheduler: unknown IPVS scheduler \"" + scheduler + "\"; " + IpvsConfig.schedulerReason());
        }
        for (Duration d : List.of(tcpTimeout, tcpFinTimeout, udpTimeout)) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("ipvs timeouts must not be negative");
            }
        }
        excludeCIDRs = List.copyOf(excludeCIDRs);
    }

    /** The node's {@code ipvs} settings as the fold resolved them. */
    static IpvsSettings of(DataplaneSettings.Ipvs s) {
        return new IpvsSettings(s.scheduler(), s.excludeCIDRs(), s.strictARP(), s.tcpTimeout(), s.tcpFinTimeout(), s.udpTimeout());
    }

    /** Whether kproxy must leave a virtual server on this address alone (upstream's {@code isIPInExcludeCIDRs}). */
    boolean excluded(IpAddress address) {
        return excludeCIDRs.stream().anyMatch(c -> c.contains(address));
    }

    /** The flags every virtual server gets from the scheduler: {@code mh} needs the source-hash flag. */
    int schedulerFlags() {
        return scheduler.equals("mh") ? VirtualServer.SOURCE_HASH : 0;
    }

    /** The timeouts as {@code ipvsadm --set tcp tcpfin udp} takes them (whole seconds; 0 keeps the kernel's). */
    String ipvsadmSet() {
        return "ipvsadm --set " + tcpTimeout.toSeconds() + " " + tcpFinTimeout.toSeconds() + " " + udpTimeout.toSeconds();
    }

    boolean setsTimeouts() {
        return tcpTimeout.isPositive() || tcpFinTimeout.isPositive() || udpTimeout.isPositive();
    }
}
