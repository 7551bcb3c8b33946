package io.kproxy.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A complete, defaulted {@code KubeProxyConfiguration} ({@code kubeproxy.config.k8s.io/v1alpha1},
 * upstream {@code staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go}) plus kproxy's own
 * section. Field names follow upstream. Immutable; no null components.
 */
public record ProxyConfig(
        Map<String, Boolean> featureGates,
        ClientConnectionConfig clientConnection,
        String hostnameOverride,
        String bindAddress,
        String healthzBindAddress,
        String metricsBindAddress,
        boolean bindAddressHardFail,
        boolean enableProfiling,
        String showHiddenMetricsForVersion,
        ProxyMode mode,
        IptablesConfig iptables,
        IpvsConfig ipvs,
        NftablesConfig nftables,
        LocalMode detectLocalMode,
        DetectLocalConfig detectLocal,
        String clusterCIDR,
        List<String> nodePortAddresses,
        int oomScoreAdj,
        ConntrackConfig conntrack,
        Duration configSyncPeriod,
        String portRange,
        KproxyConfig kproxy) {

    public ProxyConfig {
        featureGates = Map.copyOf(featureGates);
        nodePortAddresses = List.copyOf(nodePortAddresses);
    }
}
