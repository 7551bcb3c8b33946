package io.kproxy.config;

import io.kproxy.model.Cidr;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A complete, defaulted {@code KubeProxyConfiguration} ({@code kubeproxy.config.k8s.io/v1alpha1},
 * upstream {@code staging/src/k8s.io/kube-proxy/config/v1alpha1/types.go}) plus kproxy's own
 * section. Field names follow upstream; {@link ConfigLoader} builds one from a file (parse,
 * default, bind, validate) and {@link ConfigLoader#toTree} writes it back. It is the one form both
 * {@code apiVersion}s convert into ({@link ConfigVersion}): v1alpha1's shape, which is also
 * upstream's released internal form (host:port server addresses, one {@code bindAddress}), with
 * the mode-dependent choices of upstream's conversion in {@link #syncPeriod()},
 * {@link #minSyncPeriod()}, {@link #masqueradeAll()} and {@link #masqueradeBit()}.
 *
 * <p>Immutable and safe to share between threads; no null components ({@code ""} means an unset
 * string, as in upstream's Go structs). The record itself does not validate ranges: use
 * {@link Validator} (as {@link ConfigLoader} does) before trusting a hand-built instance.
 *
 * <p>{@code bindAddress} is upstream's node-IP override (no socket is bound to it): {@code 0.0.0.0}
 * (upstream's default) or {@code ::} means "use the Node object's addresses"; newer upstream also
 * accepts a comma-separated dual-stack pair. {@code nodePortAddresses} is left empty by defaulting;
 * the node projection resolves the mode-dependent default (upstream: {@code primary} for
 * nftables, all addresses otherwise).
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
        KproxyConfig kproxy,
        LoggingConfig logging,
        WinkernelConfig winkernel,
        boolean windowsRunAsService) {

    public ProxyConfig {
        featureGates = Map.copyOf(featureGates);
        Objects.requireNonNull(clientConnection, "clientConnection");
        Objects.requireNonNull(hostnameOverride, "hostnameOverride");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(healthzBindAddress, "healthzBindAddress");
        Objects.requireNonNull(metricsBindAddress, "metricsBindAddress");
        Objects.requireNonNull(showHiddenMetricsForVersion, "showHiddenMetricsForVersion");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(iptables, "iptables");
        Objects.requireNonNull(ipvs, "ipvs");
        Objects.requireNonNull(nftables, "nftables");
        Objects.requireNonNull(detectLocalMode, "detectLocalMode");
        Objects.requireNonNull(detectLocal, "detectLocal");
        Objects.requireNonNull(clusterCIDR, "clusterCIDR");
        nodePortAddresses = List.copyOf(nodePortAddresses);
        Objects.requireNonNull(conntrack, "conntrack");
        Objects.requireNonNull(configSyncPeriod, "configSyncPeriod");
        Objects.requireNonNull(portRange, "portRange");
        Objects.requireNonNull(kproxy, "kproxy");
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(winkernel, "winkernel");
    }

    /**
     * The sync period of the mode in force: {@code ipvs.syncPeriod}, {@code nftables.syncPeriod},
     * else {@code iptables.syncPeriod} (upstream {@code pkg/proxy/apis/config/v1alpha1/conversion.go}).
     */
    public Duration syncPeriod() {
        return switch (mode) {
            case IPVS -> ipvs.syncPeriod();
            case NFTABLES -> nftables.syncPeriod();
            case IPTABLES -> iptables.syncPeriod();
        };
    }

    /** The minimum sync period of the mode in force, chosen as {@link #syncPeriod()}. */
    public Duration minSyncPeriod() {
        return switch (mode) {
            case IPVS -> ipvs.minSyncPeriod();
            case NFTABLES -> nftables.minSyncPeriod();
            case IPTABLES -> iptables.minSyncPeriod();
        };
    }

    /** {@code nftables.masqueradeAll} in nftables mode, else {@code iptables.masqueradeAll} (conversion.go). */
    public boolean masqueradeAll() {
        return mode == ProxyMode.NFTABLES ? nftables.masqueradeAll() : iptables.masqueradeAll();
    }

    /** {@code nftables.masqueradeBit} in nftables mode, else {@code iptables.masqueradeBit} (ipvs uses it too). */
    public int masqueradeBit() {
        return mode == ProxyMode.NFTABLES ? nftables.masqueradeBit() : iptables.masqueradeBit();
    }

    /**
     * {@code clusterCIDR} split on commas and parsed (sloppily, as upstream); empty when unset.
     *
     * @throws io.kproxy.model.InvalidValueException when an entry is not a CIDR (never after
     *                                                {@link Validator} accepted the config)
     */
    public List<Cidr> clusterCIDRs() {
        if (clusterCIDR.isEmpty()) {
            return List.of();
        }
        List<Cidr> out = new ArrayList<>();
        for (String s : clusterCIDR.split(",", -1)) {
            out.add(Cidr.parse("clusterCIDR", s));
        }
        return List.copyOf(out);
    }
}
