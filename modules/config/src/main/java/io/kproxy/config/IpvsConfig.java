package io.kproxy.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * {@code ipvs}: upstream's {@code KubeProxyIPVSConfiguration}. Immutable; no null components; a
 * zero timeout keeps the kernel's value; an empty {@code scheduler} means {@code rr}.
 */
public record IpvsConfig(Duration syncPeriod, Duration minSyncPeriod, String scheduler, List<String> excludeCIDRs, boolean strictARP,
        Duration tcpTimeout, Duration tcpFinTimeout, Duration udpTimeout) {

    public IpvsConfig {
        Objects.requireNonNull(syncPeriod, "syncPeriod");
        Objects.requireNonNull(minSyncPeriod, "minSyncPeriod");
        Objects.requireNonNull(scheduler, "scheduler");
        excludeCIDRs = List.copyOf(excludeCIDRs);
        Objects.requireNonNull(tcpTimeout, "tcpTimeout");
        Objects.requireNonNull(tcpFinTimeout, "tcpFinTimeout");
        Objects.requireNonNull(udpTimeout, "udpTimeout");
    }
}
