package io.kproxy.config;

/** {@code mode}: the dataplane backend. Upstream's default on Linux is {@code iptables}. */
public enum ProxyMode {
    IPTABLES("iptables"),
    IPVS("ipvs"),
    NFTABLES("nftables");

    private final String apiName;

    ProxyMode(String apiName) {
        this.apiName = apiName;
    }

    /** The spelling in configuration files and on the command line. */
    public String apiName() {
        return apiName;
    }
}
