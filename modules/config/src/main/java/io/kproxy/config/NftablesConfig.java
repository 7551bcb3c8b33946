package io.kproxy.config;

import java.time.Duration;
import java.util.Objects;

/** {@code nftables}: upstream's {@code KubeProxyNFTablesConfiguration}. Immutable; no null components. */
public record NftablesConfig(int masqueradeBit, boolean masqueradeAll, Duration syncPeriod, Duration minSyncPeriod) {

    public NftablesConfig {
        Objects.requireNonNull(syncPeriod, "syncPeriod");
        Objects.requireNonNull(minSyncPeriod, "minSyncPeriod");
    }
}
