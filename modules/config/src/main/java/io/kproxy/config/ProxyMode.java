package io.kproxy.config;

import java.util.Optional;

/**
 * {@code mode}: the dataplane backend. An empty {@code mode} in a file means upstream's Linux
 * default, {@code iptables} ({@code cmd/kube-proxy/app/server_linux.go} platformApplyDefaults);
 * {@code kernelspace} is Windows-only and refused here.
 */
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

    /** The mode spelled {@code name} exactly (case-sensitive, as upstream), if any. */
    public static Optional<ProxyMode> fromApiName(String name) {
        for (ProxyMode m : values()) {
            if (m.apiName.equals(name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
