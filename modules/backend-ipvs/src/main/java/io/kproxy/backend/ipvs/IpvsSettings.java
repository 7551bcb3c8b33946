package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code ipvs} section of the configuration as the backend uses it (upstream's
 * {@code KubeProxyIPVSConfiguration}). Not part of {@code NodeState} yet, so the provider passes it
 * in (docs/backends/ipvs.md, "Deviations"). Immutable; validated here as upstream's
 * {@code pkg/proxy/apis/config/validation} and {@code NewProxier} do, so that no plan is ever
 * rendered with a scheduler the mode does not know.
 *
 * @param scheduler     one of {@link #SCHEDULERS}; blank means {@code rr} (upstream's default)
 * @param excludeCIDRs  virtual servers inside these are never deleted by kproxy
 * @param strictARP     set {@code arp_ignore=1} and {@code arp_announce=2}
 * @param tcpTimeout    IPVS TCP timeout; zero keeps the kernel's
 * @param tcpFinTimeout IPVS TCP FIN timeout; zero keeps the kernel's
 * @param udpTimeout    IPVS UDP timeout; zero keeps the kernel's
 */
record IpvsSettings(String scheduler, List<Cidr> excludeCIDRs, boolean strictARP, Duration tcpTimeout, Duration tcpFinTimeout,
        Duration udpTimeout) {

    /** The kernel's IPVS schedulers ({@code net/netfilter/ipvs/ip_vs_*.c}) that upstream documents. */
    static final Set<String> SCHEDULERS = Set.of("rr", "wrr", "lc", "wlc", "lblc", "lblcr", "sh", "dh", "sed", "nq", "mh");

    /** Upstream's defaults: {@code rr}, nothing excluded, no strict ARP, the kernel's timeouts. */
    static final IpvsSettings DEFAULT = new IpvsSettings("rr", List.of(), false, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    IpvsSettings {
        if (scheduler == null || excludeCIDRs == null || tcpTimeout == null || tcpFinTimeout == null || udpTimeout == null) {
            throw new IllegalArgumentException("no component may be null");
        }
        scheduler = scheduler.isBlank() ? "rr" : scheduler;
        if (!SCHEDULERS.contains(scheduler)) {
            throw new IllegalArgumentException("ipvs.scheduler: unknown IPVS scheduler \"" + scheduler + "\"; one of " + new TreeSet<>(SCHEDULERS));
        }
        for (Duration d : List.of(tcpTimeout, tcpFinTimeout, udpTimeout)) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("ipvs timeouts must not be negative");
            }
        }
        excludeCIDRs = List.copyOf(excludeCIDRs);
    }

    /** Whether kproxy must leave a virtual server on this address alone (upstream's {@code isIPInExcludeCIDRs}). */
    boolean excluded(IpAddress address) {
        return excludeCIDRs.stream().anyMatch(c -> c.contains(address));
    }

    /** The flags every virtual server gets from the scheduler: {@code mh} needs the source-hash flag. */
    int schedulerFlags() {
        return scheduler.equals("mh") ? VirtualServer.SOURCE_HASH : 0;
    }

    boolean setsTimeouts() {
        return tcpTimeout.isPositive() || tcpFinTimeout.isPositive() || udpTimeout.isPositive();
    }
}
