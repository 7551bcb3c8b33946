package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ClientConnectionConfig;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConfigVersion;
import io.kproxy.config.ConntrackConfig;
import io.kproxy.config.DetectLocalConfig;
import io.kproxy.config.LocalMode;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.ProxyMode;
import io.kproxy.model.Cidr;
import io.kproxy.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code kubeproxy.config.k8s.io/v1alpha2} documents from upstream's draft tests
 * (src/test/resources/upstream, sources noted in each file), with the effective configuration
 * compared to a golden file.
 */
class V1alpha2LoadTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/config");

    @Test
    void anEmptyV1alpha2DocumentHasUpstreamsV1alpha2Defaults() throws IOException {
        ProxyConfig c = UpstreamExamplesTest.load("v1alpha2-empty-config.yaml");
        // defaults_test.go "empty-config", field by field.
        assertThat(c.featureGates()).isEmpty();
        assertThat(c.healthzBindAddress()).as("0.0.0.0/0 and ::/0, port 10256").isEqualTo("[::]:10256");
        assertThat(c.metricsBindAddress()).as("127.0.0.0/8 and ::1/128, port 10249").isEqualTo("127.0.0.1:10249");
        assertThat(c.clientConnection()).isEqualTo(new ClientConnectionConfig("", "", "application/vnd.kubernetes.protobuf", 5f, 10));
        assertThat(c.iptables().masqueradeBit()).isEqualTo(14);
        assertThat(c.iptables().localhostNodePorts()).as("v1alpha2 defaults it to false, v1alpha1 to true").isFalse();
        assertThat(c.nftables().masqueradeBit()).isEqualTo(14);
        assertThat(c.masqueradeAll()).isFalse();
        assertThat(c.oomScoreAdj()).isEqualTo(-999);
        assertThat(c.conntrack()).isEqualTo(new ConntrackConfig(32768, 131072, Duration.ofHours(24), Duration.ofHours(1), false,
                Duration.ZERO, Duration.ZERO));
        assertThat(c.bindAddressHardFail()).as("configHardFail defaults to true").isTrue();
        assertThat(c.syncPeriod()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.minSyncPeriod()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.configSyncPeriod()).isEqualTo(Duration.ofMinutes(15));
        assertThat(c.logging().format()).isEqualTo("text");
        assertThat(c.logging().flushFrequency()).isEqualTo(Duration.ofSeconds(5));
        // server_linux.go platformApplyDefaults, as in v1alpha1.
        assertThat(c.mode()).isEqualTo(ProxyMode.IPTABLES);
        assertThat(c.detectLocalMode()).isEqualTo(LocalMode.CLUSTER_CIDR);
        assertGolden("v1alpha2-empty-config.v1alpha2.yaml", ConfigTrees.toTree(c, ConfigVersion.V1ALPHA2));
        assertGolden("v1alpha2-empty-config.v1alpha1.yaml", ConfigTrees.toTree(c));
    }

    @Test
    void loadConfigV1alpha2NftablesDualStack() {
        ProxyConfig c = UpstreamExamplesTest.load("server-test-load-config-v1alpha2.yaml");
        assertThat(c.clientConnection()).isEqualTo(new ClientConnectionConfig("/path/to/kubeconfig", "abc", "content-type", 7f, 100));
        assertThat(c.configSyncPeriod()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.syncPeriod()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.minSyncPeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.nftables().syncPeriod()).as("the mode's section gets the top-level periods").isEqualTo(Duration.ofSeconds(60));
        assertThat(c.iptables().syncPeriod()).as("the others keep v1alpha1's defaults").isEqualTo(Duration.ofSeconds(30));
        assertThat(c.conntrack()).isEqualTo(new ConntrackConfig(2, 1, Duration.ofSeconds(20), Duration.ofSeconds(10), false,
                Duration.ZERO, Duration.ZERO));
        assertThat(c.masqueradeAll()).isFalse();
        assertThat(c.oomScoreAdj()).isEqualTo(17);
        assertThat(c.hostnameOverride()).isEqualTo("foo");
        assertThat(c.bindAddress()).as("no nodeIPOverride: the Node's addresses").isEqualTo("0.0.0.0");
        assertThat(c.healthzBindAddress()).isEqualTo("[::]:54321");
        assertThat(c.metricsBindAddress()).isEqualTo("127.0.0.1:9876");
        assertThat(c.iptables().masqueradeBit()).isEqualTo(12);
        assertThat(c.iptables().localhostNodePorts()).isFalse();
        assertThat(c.nftables().masqueradeBit()).isEqualTo(18);
        assertThat(c.masqueradeBit()).isEqualTo(18);
        assertThat(c.ipvs().excludeCIDRs()).containsExactly("10.20.30.40/16", "fd00:1::0/64");
        assertThat(c.mode()).isEqualTo(ProxyMode.NFTABLES);
        assertThat(c.nodePortAddresses()).containsExactly("10.20.30.40/16", "fd00:1::0/64");
        assertThat(c.detectLocal()).isEqualTo(new DetectLocalConfig("cbr0", "veth"));
        assertThat(c.clusterCIDRs()).containsExactly(Cidr.parse("10.244.0.0/16"), Cidr.parse("fd00:1::/64"));
        assertThat(c.portRange()).isEmpty();
        assertThat(c.bindAddressHardFail()).isTrue();
    }

    @Test
    void ipvsModeUsesIpvsMasqueradeBitAndPeriods() {
        ProxyConfig c = ConfigLoader.load("""
                apiVersion: kubeproxy.config.k8s.io/v1alpha2
                kind: KubeProxyConfiguration
                mode: ipvs
                iptables: {masqueradeBit: 12}
                ipvs: {masqueradeBit: 15, scheduler: wrr}
                syncPeriod: 45s
                minSyncPeriod: 2s
                linux: {masqueradeAll: true}
                nodeIPOverride: ["10.0.0.5", "fd00::5"]
                configHardFail: false
                windows: {runAsService: true}
                """);
        assertThat(c.masqueradeBit()).isEqualTo(15);
        assertThat(c.ipvs().syncPeriod()).isEqualTo(Duration.ofSeconds(45));
        assertThat(c.ipvs().minSyncPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.ipvs().scheduler()).isEqualTo("wrr");
        assertThat(c.masqueradeAll()).isTrue();
        assertThat(c.bindAddress()).isEqualTo("10.0.0.5,fd00::5");
        assertThat(c.bindAddressHardFail()).isFalse();
        assertThat(c.windowsRunAsService()).isTrue();
    }

    @Test
    void serverAddressListsKproxyCanServe() {
        String base = "apiVersion: kubeproxy.config.k8s.io/v1alpha2\nkind: KubeProxyConfiguration\nhealthzBindPort: 8080\n";
        assertThat(ConfigLoader.load(base + "healthzBindAddresses: [\"0.0.0.0/0\"]\n").healthzBindAddress()).isEqualTo("0.0.0.0:8080");
        assertThat(ConfigLoader.load(base + "healthzBindAddresses: [\"::/0\"]\n").healthzBindAddress()).isEqualTo("[::]:8080");
        assertThat(ConfigLoader.load(base + "healthzBindAddresses: [\"10.1.2.3/32\"]\n").healthzBindAddress()).isEqualTo("10.1.2.3:8080");
        assertThat(ConfigLoader.load(base + "healthzBindAddresses: [\"fd00::7/128\"]\n").healthzBindAddress()).isEqualTo("[fd00::7]:8080");
        assertThat(ConfigLoader.load(base + "healthzBindAddresses: [\"127.0.0.0/8\"]\n").healthzBindAddress()).isEqualTo("127.0.0.1:8080");
    }

    static void assertGolden(String name, Json.Obj actual) throws IOException {
        String want = Files.readString(GOLDEN.resolve(name));
        assertThat(ConfigText.toYaml(actual)).as("golden %s differs; actual:%n%s", name, ConfigText.toYaml(actual))
                .isEqualTo(ConfigText.toYaml(ConfigText.parse(want)));
    }
}
