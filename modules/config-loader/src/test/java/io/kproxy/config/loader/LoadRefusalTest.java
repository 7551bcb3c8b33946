package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Validation refusals end to end (text → ConfigLoader.load): the message names the field path and the reason. */
class LoadRefusalTest {

    private static final String HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bad CIDR|'nodePortAddresses: [10.0.0.0/8, 10.1.2.3]'|nodePortAddresses[1]: must be a valid CIDR",
        "bad cluster CIDR|'clusterCIDR: 10.0.0.0/33'|clusterCIDR: must be a valid CIDR block",
        "single-family pair|'clusterCIDR: 10.0.0.0/8,192.168.0.0/16'|clusterCIDR: must be a either a single CIDR or dual-stack pair",
        "bad exclude CIDR|'mode: ipvs\nipvs:\n  excludeCIDRs: [nope]'|ipvs.excludeCIDRs[0]: must be a valid CIDR",
        "out-of-range int|'iptables:\n  masqueradeBit: 32'|iptables.masqueradeBit: must be within the range [0, 31]",
        "out-of-range oomScoreAdj|'oomScoreAdj: -1001'|oomScoreAdj: must be within the range [-1000, 1000]",
        "negative conntrack|'conntrack:\n  min: -1'|conntrack.min: must be greater than or equal to 0",
        "missing bridge interface|'detectLocalMode: BridgeInterface'|detectLocal.bridgeInterface: must not be empty",
        "missing interface prefix|'detectLocalMode: InterfaceNamePrefix'|detectLocal.interfaceNamePrefix: must not be empty",
        "bad host:port|'metricsBindAddress: 127.0.0.1:http'|metricsBindAddress: must be a valid port",
        "bad bind address|'bindAddress: 10.10.12.11:2000'|bindAddress: must be a valid IP",
        "min above sync|'iptables:\n  syncPeriod: 1s\n  minSyncPeriod: 2s'|iptables.syncPeriod: must be greater than or equal to iptables.minSyncPeriod",
        "negative sync|'mode: nftables\nnftables:\n  syncPeriod: -1s'|nftables.syncPeriod: must be greater than 0",
        "bad log format|'logging:\n  format: xml'|logging.format: Unsupported log format",
        "kafka without servers|'kproxy:\n  eventLog:\n    type: kafka'|kproxy.eventLog.kafka.bootstrapServers: required when eventLog.type is kafka",
        "snapshot interval|'kproxy:\n  snapshotInterval: 10'|kproxy.snapshotInterval: must be at least 100",
        "zero fsync window|'kproxy:\n  fsyncWindow: 0s'|kproxy.fsyncWindow: must be greater than 0",
        "admin socket not a path|'kproxy:\n  adminSocket: 127.0.0.1:10257'|kproxy.adminSocket: must be an absolute path to a socket file",
    })
    void refused(String name, String yaml, String expected) {
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + yaml + "\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("invalid configuration (")
                .hasMessageContaining("\n  " + expected);
    }
}
