package io.kproxy.config;

/** {@code detectLocalMode}: how pod traffic is told from other traffic. Default {@code ClusterCIDR}. */
public enum LocalMode {
    CLUSTER_CIDR("ClusterCIDR"),
    NODE_CIDR("NodeCIDR"),
    BRIDGE_INTERFACE("BridgeInterface"),
    INTERFACE_NAME_PREFIX("InterfaceNamePrefix");

    private final String apiName;

    LocalMode(String apiName) {
        this.apiName = apiName;
    }

    public String apiName() {
        return apiName;
    }
}
