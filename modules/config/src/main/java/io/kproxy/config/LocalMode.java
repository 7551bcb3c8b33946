package io.kproxy.config;

import java.util.Optional;

/**
 * {@code detectLocalMode}: how pod traffic is told from other traffic. An empty value in a file
 * means {@code ClusterCIDR} ({@code cmd/kube-proxy/app/server_linux.go} platformApplyDefaults).
 */
public enum LocalMode {
    CLUSTER_CIDR("ClusterCIDR"),
    NODE_CIDR("NodeCIDR"),
    BRIDGE_INTERFACE("BridgeInterface"),
    INTERFACE_NAME_PREFIX("InterfaceNamePrefix");

    private final String apiName;

    LocalMode(String apiName) {
        this.apiName = apiName;
    }

    /** The spelling in configuration files. */
    public String apiName() {
        return apiName;
    }

    /** The mode spelled {@code name} exactly (case-sensitive, as upstream), if any. */
    public static Optional<LocalMode> fromApiName(String name) {
        for (LocalMode m : values()) {
            if (m.apiName.equals(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
