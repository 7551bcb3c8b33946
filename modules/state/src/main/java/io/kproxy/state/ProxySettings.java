package io.kproxy.state;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.LocalMode;
import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import java.util.List;

/**
 * The few fields of the recorded configuration that the fold and projection read, as
 * {@link RecordedSettings} takes them from the configuration core (which defaults them as upstream
 * does: {@code pkg/proxy/apis/config/v1alpha1/defaults.go}, {@code server_linux.go}
 * platformApplyDefaults), with the v1alpha1 conversion for {@code masqueradeAll} and
 * {@code clusterCIDR}.
 *
 * @param nodeName          the node this proxy runs for ("" before any {@code ConfigRecorded})
 * @param mode              {@code iptables}, {@code ipvs} or {@code nftables}
 * @param nodePortAddresses entries as configured: canonical CIDR text or a keyword
 *                          ({@code primary}, {@code all}, {@code localhost}); empty = mode default
 * @param serviceCIDRs      the configured {@code kproxy.serviceCIDRs}: the service ranges while
 *                          the fold holds no ServiceCIDR object
 * @param bindAddress       {@code bindAddress} when set and not unspecified (at most one)
 * @param ipvs              the {@code ipvs} section's rule-changing fields, each bad value at its default
 */
record ProxySettings(String nodeName, String mode, boolean masqueradeAll, int iptablesMasqueradeBit, int nftablesMasqueradeBit,
        boolean localhostNodePorts, List<Cidr> serviceCIDRs, List<Cidr> clusterCIDRs, LocalMode detectLocalMode, String bridgeInterface,
        String interfaceNamePrefix, List<String> nodePortAddresses, List<IpAddress> bindAddress, DataplaneSettings.Ipvs ipvs) {

    static final String PRIMARY = "primary";
    static final String ALL = "all";
    static final String LOCALHOST = "localhost";

    /** Upstream's defaults on Linux ({@link ConfigTrees#defaults}), for a node whose configuration has not been recorded yet. */
    static final ProxySettings DEFAULT = RecordedSettings.of("", ConfigTrees.defaults(), new Problems(-1, "Config", "config"));

    ProxySettings {
        if (nodeName == null || mode == null || detectLocalMode == null || bridgeInterface == null || interfaceNamePrefix == null
                || ipvs == null) {
            throw new IllegalArgumentException("nodeName, mode, detectLocalMode, interface names and ipvs are required");
        }
        serviceCIDRs = List.copyOf(serviceCIDRs);
        clusterCIDRs = List.copyOf(clusterCIDRs);
        nodePortAddresses = List.copyOf(nodePortAddresses);
        bindAddress = List.copyOf(bindAddress);
        if (bindAddress.size() > 1) {
            throw new IllegalArgumentException("at most one bind address");
        }
    }

    /**
     * The rule-changing subset the backends read, with the service ranges in force (the
     * ServiceCIDRs' when the fold holds any, these {@link #serviceCIDRs} otherwise:
     * {@link ServiceRanges}).
     */
    DataplaneSettings dataplane(List<Cidr> serviceRanges) {
        return new DataplaneSettings(mode, masqueradeAll, iptablesMasqueradeBit, nftablesMasqueradeBit, localhostNodePorts, serviceRanges, ipvs);
    }
}
