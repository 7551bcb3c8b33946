package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ClientConnectionConfig;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConntrackConfig;
import io.kproxy.config.Defaults;
import io.kproxy.config.DetectLocalConfig;
import io.kproxy.config.IptablesConfig;
import io.kproxy.config.IpvsConfig;
import io.kproxy.config.KproxyConfig;
import io.kproxy.config.LocalMode;
import io.kproxy.config.LoggingConfig;
import io.kproxy.config.NftablesConfig;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.ProxyMode;
import io.kproxy.config.WinkernelConfig;
import io.kproxy.model.Json;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Upstream: pkg/proxy/apis/config/v1alpha1/defaults.go and defaults_test.go, server_linux.go platformApplyDefaults. */
class DefaultsTest {

    private static final String HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";

    @Test
    void emptyConfigGetsUpstreamDefaults() {
        ProxyConfig c = ConfigTrees.defaults();
        assertThat(c.featureGates()).isEmpty();
        assertThat(c.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(c.healthzBindAddress()).isEqualTo("0.0.0.0:10256");
        assertThat(c.metricsBindAddress()).isEqualTo("127.0.0.1:10249");
        assertThat(c.clientConnection()).isEqualTo(new ClientConnectionConfig("", "", "application/vnd.kubernetes.protobuf", 5f, 10));
        assertThat(c.mode()).isEqualTo(ProxyMode.IPTABLES);
        assertThat(c.iptables()).isEqualTo(new IptablesConfig(14, false, true, false, Duration.ofSeconds(30), Duration.ofSeconds(1)));
        assertThat(c.ipvs()).isEqualTo(new IpvsConfig(Duration.ofSeconds(30), Duration.ZERO, "", List.of(), false,
                Duration.ZERO, Duration.ZERO, Duration.ZERO));
        assertThat(c.nftables()).isEqualTo(new NftablesConfig(14, false, Duration.ofSeconds(30), Duration.ofSeconds(1)));
        assertThat(c.detectLocalMode()).isEqualTo(LocalMode.CLUSTER_CIDR);
        assertThat(c.detectLocal()).isEqualTo(new DetectLocalConfig("", ""));
        assertThat(c.clusterCIDR()).isEmpty();
        assertThat(c.nodePortAddresses()).as("resolved per mode by the node projection").isEmpty();
        assertThat(c.oomScoreAdj()).isEqualTo(-999);
        assertThat(c.conntrack()).isEqualTo(new ConntrackConfig(32768, 131072, Duration.ofHours(24), Duration.ofHours(1), false,
                Duration.ZERO, Duration.ZERO));
        assertThat(c.configSyncPeriod()).isEqualTo(Duration.ofMinutes(15));
        assertThat(c.portRange()).isEmpty();
        assertThat(c.logging()).isEqualTo(new LoggingConfig("text", Duration.ofSeconds(5), 0, List.of(),
                new LoggingConfig.FormatOptions(new LoggingConfig.OutputRouting(false, "0"), new LoggingConfig.OutputRouting(false, "0"))));
        assertThat(c.winkernel()).isEqualTo(WinkernelConfig.EMPTY);
        assertThat(c.windowsRunAsService()).isFalse();
        assertThat(c.kproxy()).isEqualTo(new KproxyConfig("/var/lib/kproxy/journal", Duration.ofMillis(2), 10_000,
                new KproxyConfig.RetentionConfig(Duration.ofHours(168), 1L << 30),
                new KproxyConfig.EventLogConfig(KproxyConfig.EventLogType.LOCAL, KproxyConfig.KafkaConfig.UNSET),
                List.of(), "/run/kproxy/admin.sock"));
        assertThat(c.syncPeriod()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.minSyncPeriod()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.masqueradeBit()).isEqualTo(14);
    }

    @Test
    void defaultsOnlyFillWhatIsUnset() {
        ProxyConfig c = ConfigLoader.load(HEADER + "mode: nftables\nnftables:\n  masqueradeBit: 0\n  syncPeriod: 1m\noomScoreAdj: 0\n"
                + "conntrack:\n  maxPerCore: 0\n  tcpEstablishedTimeout: 0s\nclientConnection:\n  qps: 2.5\n  burst: 3\n");
        // Pointer fields upstream: an explicit zero is kept.
        assertThat(c.nftables().masqueradeBit()).isZero();
        assertThat(c.oomScoreAdj()).isZero();
        assertThat(c.conntrack().maxPerCore()).isZero();
        assertThat(c.conntrack().min()).isEqualTo(131072);
        assertThat(c.conntrack().tcpEstablishedTimeout()).isZero();
        assertThat(c.nftables().syncPeriod()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.nftables().minSyncPeriod()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.clientConnection().qps()).isEqualTo(2.5f);
        assertThat(c.clientConnection().burst()).isEqualTo(3);
        assertThat(c.syncPeriod()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.masqueradeBit()).isZero();
    }

    @Test
    void plainFieldsTreatZeroAsUnsetLikeGo() {
        // Go cannot tell "0s" from absent in a non-pointer metav1.Duration: iptables.minSyncPeriod 0 becomes 1s.
        ProxyConfig c = ConfigLoader.load(HEADER + "iptables:\n  minSyncPeriod: 0s\n  syncPeriod: \"0\"\nipvs:\n  syncPeriod: 0h\n"
                + "configSyncPeriod: 0s\nclientConnection:\n  qps: 0\n  burst: 0\n  contentType: \"\"\nbindAddress: \"\"\n"
                + "healthzBindAddress: \"\"\nmetricsBindAddress: \"\"\nmode: \"\"\ndetectLocalMode: \"\"\n");
        assertThat(c).isEqualTo(ConfigTrees.defaults());
    }

    @Test
    void nullsReadAsAbsent() {
        ProxyConfig c = ConfigLoader.load(HEADER + "iptables:\n  masqueradeBit: null\n  localhostNodePorts: null\noomScoreAdj: null\n"
                + "conntrack:\n  maxPerCore: null\n  min: null\n  tcpCloseWaitTimeout: null\n  tcpEstablishedTimeout: null\n"
                + "featureGates: null\nnodePortAddresses: null\nlogging: null\nkproxy: null\nnftables: null\n");
        assertThat(c).isEqualTo(ConfigTrees.defaults());
    }

    @ParameterizedTest(name = "bindAddress {0}")
    @CsvSource(delimiter = '|', value = {
        "0.0.0.0|0.0.0.0:10256|127.0.0.1:10249",
        "9.8.7.6|0.0.0.0:10256|127.0.0.1:10249",
        "'::'|[::]:10256|[::1]:10249",
        "2001:db8::1|[::]:10256|[::1]:10249",
        "::ffff:1.2.3.4|0.0.0.0:10256|127.0.0.1:10249",
        "'10.0.0.1,fd00::1'|0.0.0.0:10256|127.0.0.1:10249",
    })
    void serverAddressesFollowTheBindAddressFamily(String bind, String healthz, String metrics) {
        Json.Obj out = Defaults.apply(Json.obj("bindAddress", Json.of(bind)));
        assertThat(out.string("healthzBindAddress")).hasValue(healthz);
        assertThat(out.string("metricsBindAddress")).hasValue(metrics);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "127.0.0.1|127.0.0.1:10256",
        "1.2.3.4:5678|1.2.3.4:5678",
        "::1|[::1]:10256",
        "[::1]:99|[::1]:99",
        "not-an-ip|not-an-ip",
    })
    void addressWithoutPortGetsTheDefaultPort(String written, String defaulted) {
        // defaults_test.go "metrics and healthz address with no port"; proxyutil.AppendPortIfNeeded.
        Json.Obj out = Defaults.apply(Json.obj("healthzBindAddress", Json.of(written)));
        assertThat(out.string("healthzBindAddress")).hasValue(defaulted);
    }

    @Test
    void loggingFollowsComponentBase() {
        Json.Obj logging = Defaults.apply(Json.obj("logging", Json.obj("flushFrequency", Json.of(0)))).object("logging");
        assertThat(logging.fields()).containsEntry("format", Json.of("text")).containsEntry("flushFrequency", Json.of("5s"));
        assertThat(logging.object("options").object("json").fields()).containsEntry("infoBufferSize", Json.of("0"));
        Json.Obj kept = Defaults.apply(Json.obj("logging", Json.obj("format", Json.of("json"), "flushFrequency", Json.of(1000))))
                .object("logging");
        assertThat(kept.fields()).containsEntry("format", Json.of("json")).containsEntry("flushFrequency", Json.of(1000));
    }

    @Test
    void wrongTypesAreLeftForBinding() {
        Json.Obj in = Json.obj("iptables", Json.of("fast"), "clientConnection", Json.arr(), "oomScoreAdj", Json.of("low"),
                "configSyncPeriod", Json.of(15));
        Json.Obj out = Defaults.apply(in);
        assertThat(out.fields()).containsEntry("iptables", Json.of("fast")).containsEntry("clientConnection", Json.arr())
                .containsEntry("oomScoreAdj", Json.of("low")).containsEntry("configSyncPeriod", Json.of(15));
    }

    @Test
    void applyIsIdempotentAndKeepsUnknownFieldsForBinding() {
        Json.Obj once = Defaults.apply(Json.obj("surprise", Json.of(1), "mode", Json.of("ipvs")));
        assertThat(Defaults.apply(once)).isEqualTo(once);
        assertThat(once.fields()).containsEntry("surprise", Json.of(1)).containsEntry("mode", Json.of("ipvs"));
    }

    @Test
    void kproxyDefaultsOnlyWhenAbsent() {
        ProxyConfig c = ConfigLoader.load(HEADER + "kproxy:\n  journalDir: /data/j\n  eventLog:\n    type: kafka\n    kafka:\n"
                + "      bootstrapServers: kafka-0.kafka:9092,kafka-1.kafka:9092\n      topic: kproxy.events\n      cluster: prod-eu-1\n");
        assertThat(c.kproxy().journalDir()).isEqualTo("/data/j");
        assertThat(c.kproxy().fsyncWindow()).isEqualTo(Duration.ofMillis(2));
        assertThat(c.kproxy().eventLog().kafka()).isEqualTo(
                new KproxyConfig.KafkaConfig("kafka-0.kafka:9092,kafka-1.kafka:9092", "kproxy.events", "", "prod-eu-1"));
        assertThat(c.featureGates()).isEqualTo(Map.of());
    }
}
