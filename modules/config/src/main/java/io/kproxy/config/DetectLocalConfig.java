package io.kproxy.config;

import java.util.Objects;

/**
 * {@code detectLocal}: settings for the BridgeInterface and InterfaceNamePrefix modes (v1alpha1
 * has no {@code clusterCIDRs} here; the top-level {@code clusterCIDR} carries them). Immutable;
 * {@code ""} means unset.
 */
public record DetectLocalConfig(String bridgeInterface, String interfaceNamePrefix) {

    public DetectLocalConfig {
        Objects.requireNonNull(bridgeInterface, "bridgeInterface");
        Objects.requireNonNull(interfaceNamePrefix, "interfaceNamePrefix");
    }
}
