package io.kproxy.config;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code iptables}: upstream's {@code KubeProxyIPTablesConfiguration}. Immutable; no null
 * components. {@code masqueradeBit} is also the ipvs backend's bit (upstream
 * {@code pkg/proxy/apis/config/v1alpha1/conversion.go}).
 */
public record IptablesConfig(int masqueradeBit, boolean masqueradeAll, boolean localhostNodePorts, boolean snatNodeInternalIP,
        Duration syncPeriod, Duration minSyncPeriod) {

    public IptablesConfig {
        Objects.requireNonNull(syncPeriod, "syncPeriod");
        Objects.requireNonNull(minSyncPeriod, "minSyncPeriod");
    }
}
