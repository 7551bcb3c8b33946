package io.kproxy.config;

import java.time.Duration;

/** {@code nftables}: upstream's {@code KubeProxyNFTablesConfiguration}. */
public record NftablesConfig(int masqueradeBit, boolean masqueradeAll, Duration syncPeriod, Duration minSyncPeriod) {
}
