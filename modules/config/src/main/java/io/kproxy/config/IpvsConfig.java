package io.kproxy.config;

import java.time.Duration;
import java.util.List;

/** {@code ipvs}: upstream's {@code KubeProxyIPVSConfiguration}. */
public record IpvsConfig(Duration syncPeriod, Duration minSyncPeriod, String scheduler, List<String> excludeCIDRs, boolean strictARP,
        Duration tcpTimeout, Duration tcpFinTimeout, Duration udpTimeout) {

    public IpvsConfig {
        excludeCIDRs = List.copyOf(excludeCIDRs);
    }
}
