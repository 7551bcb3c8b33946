package io.kproxy.config;

import java.util.Objects;

/**
 * {@code winkernel}: upstream's {@code KubeProxyWinkernelConfiguration}. Accepted and kept so that
 * upstream files load; unused on Linux. Immutable; no null components.
 */
public record WinkernelConfig(String networkName, String sourceVip, boolean enableDSR, String rootHnsEndpointName,
        boolean forwardHealthCheckVip) {

    public WinkernelConfig {
        Objects.requireNonNull(networkName, "networkName");
        Objects.requireNonNull(sourceVip, "sourceVip");
        Objects.requireNonNull(rootHnsEndpointName, "rootHnsEndpointName");
    }

    /** All fields empty or false, as upstream's zero value. */
    public static final WinkernelConfig EMPTY = new WinkernelConfig("", "", false, "", false);
}
