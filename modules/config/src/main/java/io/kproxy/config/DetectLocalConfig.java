package io.kproxy.config;

/** {@code detectLocal}: settings for the BridgeInterface and InterfaceNamePrefix modes. */
public record DetectLocalConfig(String bridgeInterface, String interfaceNamePrefix) {
}
