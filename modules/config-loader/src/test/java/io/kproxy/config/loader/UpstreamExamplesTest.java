package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ClientConnectionConfig;
import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConntrackConfig;
import io.kproxy.config.Defaults;
import io.kproxy.config.DetectLocalConfig;
import io.kproxy.config.FieldError;
import io.kproxy.config.IptablesConfig;
import io.kproxy.config.IpvsConfig;
import io.kproxy.config.KproxyConfig;
import io.kproxy.config.LocalMode;
import io.kproxy.config.LoggingConfig;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.ProxyMode;
import io.kproxy.config.WinkernelConfig;
import io.kproxy.model.Cidr;
import io.kproxy.model.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loads the configurations upstream documents and tests (src/test/resources/upstream, sources noted in each file). */
class UpstreamExamplesTest {

    static final Path DIR = Path.of("src/test/resources/upstream");

    static ProxyConfig load(String name) {
        return ConfigLoader.load(DIR.resolve(name));
    }

    /** The expectations of TestLoadConfig, shared by its cases (options_test.go). */
    private static void assertLoadConfigTemplate(ProxyConfig c) {
        assertThat(c.clientConnection()).isEqualTo(new ClientConnectionConfig("/path/to/kubeconfig", "abc", "content-type", 7f, 100));
        assertThat(c.configSyncPeriod()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.conntrack()).isEqualTo(new ConntrackConfig(2, 1, Duration.ofSeconds(20), Duration.ofSeconds(10), false,
                Duration.ZERO, Duration.ZERO));
        assertThat(c.masqueradeAll()).isTrue();
        assertThat(c.oomScoreAdj()).isEqualTo(17);
        assertThat(c.hostnameOverride()).isEqualTo("foo");
        assertThat(c.iptables().masqueradeBit()).isEqualTo(17);
        assertThat(c.iptables().localhostNodePorts()).isTrue();
        assertThat(c.ipvs().excludeCIDRs()).containsExactly("10.20.30.40/16", "fd00:1::0/64");
        assertThat(c.nftables().masqueradeBit()).isEqualTo(18);
        assertThat(c.syncPeriod()).isEqualTo(Duration.ofSeconds(60));
        assertThat(c.minSyncPeriod()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.nodePortAddresses()).containsExactly("10.20.30.40/16", "fd00:1::0/64");
        assertThat(c.detectLocalMode()).isEqualTo(LocalMode.CLUSTER_CIDR);
        assertThat(c.detectLocal()).isEqualTo(new DetectLocalConfig("cbr0", "veth"));
        assertThat(c.portRange()).isEqualTo("2-7");
        assertThat(c.logging().format()).isEqualTo("text");
        assertThat(c.logging().flushFrequency()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.featureGates()).isEmpty();
    }

    @Test
    void loadConfigIptablesIpv4() {
        ProxyConfig c = load("options-test-load-config-iptables.yaml");
        assertLoadConfigTemplate(c);
        assertThat(c.mode()).isEqualTo(ProxyMode.IPTABLES);
        assertThat(c.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.clusterCIDRs()).containsExactly(Cidr.parse("1.2.3.0/24"));
        assertThat(c.healthzBindAddress()).isEqualTo("1.2.3.4:12345");
        assertThat(c.metricsBindAddress()).isEqualTo("2.3.4.5:23456");
    }

    @Test
    void loadConfigIpvsIpv6() {
        ProxyConfig c = load("options-test-load-config-ipvs-ipv6.yaml");
        assertLoadConfigTemplate(c);
        assertThat(c.mode()).isEqualTo(ProxyMode.IPVS);
        assertThat(c.masqueradeBit()).as("ipvs uses iptables.masqueradeBit").isEqualTo(17);
        assertThat(c.bindAddress()).isEqualTo("2001:db8::1");
        assertThat(c.clusterCIDRs()).containsExactly(Cidr.parse("fd00:1::/64"));
        assertThat(c.healthzBindAddress()).isEqualTo("[fd00:1::5]:12345");
        assertThat(c.metricsBindAddress()).isEqualTo("[fd00:2::5]:23456");
    }

    @Test
    void loadConfigUnquotedIpv6Zero() {
        ProxyConfig c = load("options-test-load-config-ipv6-zero.yaml");
        assertLoadConfigTemplate(c);
        assertThat(c.bindAddress()).isEqualTo("::0");
    }

    @Test
    void loadConfigUnknownAndDuplicateFieldsAreRefused() throws IOException {
        // Upstream accepts these two TestLoadConfig cases only through its lenient v1alpha1 fallback
        // decoder (with a warning); kproxy decodes strictly and names the field instead.
        String base = Files.readString(DIR.resolve("options-test-load-config-iptables.yaml"));
        assertThatThrownBy(() -> ConfigLoader.load(base + "foo: bar\n")).hasMessageContaining("foo: unknown field");
        assertThatThrownBy(() -> ConfigLoader.load(base + "bindAddress: 9.8.7.6\n")).hasMessageContaining("Duplicate field 'bindAddress'");
    }

    @Test
    void kubeadmConfigMapGetsKubeProxysDefaults() {
        ProxyConfig c = load("kubeadm-kube-proxy-configmap.yaml");
        ProxyConfig d = ConfigTrees.defaults();
        assertThat(c.clientConnection()).isEqualTo(new ClientConnectionConfig("/var/lib/kube-proxy/kubeconfig.conf", "",
                "application/vnd.kubernetes.protobuf", 5f, 10));
        assertThat(c.clusterCIDR()).isEqualTo("10.244.0.0/16");
        Json.Obj defaults = ConfigTrees.toTree(d);
        Json.Obj expected = defaults.with("clusterCIDR", Json.of("10.244.0.0/16")).with("clientConnection",
                defaults.object("clientConnection").with("kubeconfig", Json.of("/var/lib/kube-proxy/kubeconfig.conf")));
        assertThat(ConfigTrees.toTree(c)).isEqualTo(expected);
    }

    @Test
    void upstreamDefaultedGoldenFilesLoadToTheDefaults() {
        assertThat(load("scheme-after-v1alpha1.yaml")).isEqualTo(ConfigTrees.defaults());
        assertThat(load("scheme-roundtrip-default-v1alpha1.yaml")).isEqualTo(ConfigTrees.defaults());
    }

    @Test
    void optionsCompleteLoggingBindsAsUpstreamDecodesIt() throws IOException {
        Json doc = ConfigText.parse(Files.readString(DIR.resolve("options-test-complete-logging.yaml")));
        ProxyConfig bound = ConfigTrees.fromTree(Defaults.apply((Json.Obj) doc));
        assertThat(bound.logging()).isEqualTo(new LoggingConfig("json", Duration.ofSeconds(1), 10,
                List.of(new LoggingConfig.VModuleItem("foo.go", 6), new LoggingConfig.VModuleItem("bar.go", 8)),
                new LoggingConfig.FormatOptions(new LoggingConfig.OutputRouting(false, "0"), new LoggingConfig.OutputRouting(false, "0"))));
        assertThatThrownBy(() -> load("options-test-complete-logging.yaml"))
                .isInstanceOfSatisfying(ConfigException.class, e -> {
                    assertThat(e.errors()).extracting(FieldError::path).containsExactly("logging.vmodule");
                    assertThat(e.source()).endsWith("options-test-complete-logging.yaml");
                })
                .hasMessageContaining("Only supported for text log format");
    }

    @Test
    void everyDocumentedField() {
        ProxyConfig c = load("reference-all-fields.yaml");
        assertThat(c.featureGates()).isEqualTo(Map.of("KubeProxyNFTablesLocalhostNodePorts", true, "SomeAlphaGate", false));
        assertThat(c.mode()).isEqualTo(ProxyMode.NFTABLES);
        assertThat(c.syncPeriod()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.minSyncPeriod()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.masqueradeBit()).isEqualTo(15);
        assertThat(c.iptables()).isEqualTo(new IptablesConfig(13, true, false, true, Duration.ofSeconds(45), Duration.ofSeconds(2)));
        assertThat(c.ipvs()).isEqualTo(new IpvsConfig(Duration.ofMinutes(1), Duration.ofMillis(500), "wrr", List.of("192.168.50.0/24"), true,
                Duration.ofMinutes(15), Duration.ofSeconds(30), Duration.ofSeconds(5)));
        assertThat(c.winkernel()).isEqualTo(new WinkernelConfig("l2bridge", "10.0.0.250", true, "cbr0", true));
        assertThat(c.detectLocalMode()).isEqualTo(LocalMode.INTERFACE_NAME_PREFIX);
        assertThat(c.clusterCIDRs()).containsExactly(Cidr.parse("10.244.0.0/16"), Cidr.parse("fd00:10:244::/56"));
        assertThat(c.nodePortAddresses()).containsExactly("primary", "10.0.0.0/8", "localhost");
        assertThat(c.conntrack()).isEqualTo(new ConntrackConfig(65536, 262144, Duration.ofHours(12), Duration.ofMinutes(30), true,
                Duration.ofSeconds(30), Duration.ofMinutes(5)));
        assertThat(c.logging().options().text()).isEqualTo(new LoggingConfig.OutputRouting(true, "64Ki"));
        assertThat(c.showHiddenMetricsForVersion()).isEqualTo("1.33");
        assertThat(c.kproxy().eventLog().type()).isEqualTo(KproxyConfig.EventLogType.KAFKA);
        assertThat(c.kproxy().serviceCIDRs()).containsExactly("10.96.0.0/12", "fd00:10:96::/112");
        assertThat(c.kproxy().adminSocket()).isEqualTo("/var/run/kproxy/admin.sock");
        assertThat(c.kproxy().adminGroup()).isEqualTo("kproxy-admin");
    }

    @Test
    void fileErrorsNameTheFile(@TempDir Path tmp) throws IOException {
        Path missing = tmp.resolve("absent.yaml");
        assertThatThrownBy(() -> ConfigLoader.load(missing)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(missing + ": ").hasMessageContaining("cannot read the file");
        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: [\n");
        assertThatThrownBy(() -> ConfigLoader.load(bad)).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).isPresent())
                .hasMessageStartingWith(bad + ": syntax error at line ");
        Path latin1 = tmp.resolve("latin1.yaml");
        Files.write(latin1, new byte[] {'a', ':', ' ', (byte) 0xE9, '\n'});
        assertThatThrownBy(() -> ConfigLoader.load(latin1)).hasMessageContaining("not UTF-8");
    }

    @Test
    void jsonFilesLoadToo(@TempDir Path tmp) throws IOException {
        Path json = tmp.resolve("config.json");
        Files.writeString(json, ConfigText.toJson(ConfigTrees.toTree(load("reference-all-fields.yaml"))));
        assertThat(ConfigLoader.load(json)).isEqualTo(load("reference-all-fields.yaml"));
    }
}
