package io.kproxy.config;

import java.time.Duration;

/** {@code iptables}: upstream's {@code KubeProxyIPTablesConfiguration}. */
public record IptablesConfig(int masqueradeBit, boolean masqueradeAll, boolean localhostNodePorts, boolean snatNodeInternalIP,
        Duration syncPeriod, Duration minSyncPeriod) {
}
