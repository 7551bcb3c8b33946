package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.FieldError;
import io.kproxy.config.ProxyConfig;
import io.kproxy.model.Json;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One test per refusal class of the binding step; each asserts the field path and the reason. */
class BindingTest {

    private static final String HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";

    private static FieldError onlyError(ThrowingCallable load) {
        ConfigException e = (ConfigException) org.assertj.core.api.Assertions.catchThrowable(load);
        assertThat(e).as("expected a ConfigException").isNotNull();
        assertThat(e.errors()).as(e.getMessage()).hasSize(1);
        return e.errors().getFirst();
    }

    @Test
    void unknownTopLevelField() {
        FieldError e = onlyError(() -> ConfigLoader.load(HEADER + "foo: bar\n"));
        assertThat(e.path()).isEqualTo("foo");
        assertThat(e.reason()).isEqualTo("unknown field");
    }

    @Test
    void unknownNestedFieldNamesItsPath() {
        FieldError e = onlyError(() -> ConfigLoader.load(HEADER + "ipvs:\n  ipSet:\n    hashSize: 1024\n"));
        assertThat(e.path()).isEqualTo("ipvs.ipSet");
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "kproxy:\n  eventLog:\n    kafka:\n      brokers: a:1\n"))
                .hasMessageContaining("kproxy.eventLog.kafka.brokers: unknown field");
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "logging:\n  vmodule:\n  - filePattern: a\n    level: 3\n"))
                .hasMessageContaining("logging.vmodule[0].level: unknown field");
    }

    @Test
    void fieldNamesAreCaseSensitive() {
        // Older kubeadm wrote "ExcludeCIDRs"; upstream's strict decoder refuses the miscased key.
        assertThat(onlyError(() -> ConfigLoader.load(HEADER + "ipvs:\n  ExcludeCIDRs: null\n")).path()).isEqualTo("ipvs.ExcludeCIDRs");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "'hostnameOverride: 123'|hostnameOverride|expected a string, got an integer",
        "'iptables:\n  masqueradeBit: \"14\"'|iptables.masqueradeBit|expected a 32-bit integer, got a string",
        "'iptables:\n  masqueradeAll: \"yes please\"'|iptables.masqueradeAll|expected true or false, got a string",
        "'iptables: fast'|iptables|expected an object, got a string",
        "'nodePortAddresses: 10.0.0.0/8'|nodePortAddresses|expected a list, got a string",
        "'nodePortAddresses: [10.0.0.0/8, 7]'|nodePortAddresses[1]|expected a string, got an integer",
        "'featureGates:\n  Foo: enabled'|featureGates.Foo|expected true or false, got a string",
        "'configSyncPeriod: 15'|configSyncPeriod|expected a duration string such as \"30s\" or \"1h2m3.5s\", got an integer",
        "'clientConnection:\n  qps: fast'|clientConnection.qps|expected a number, got a string",
        "'oomScoreAdj: 1.5'|oomScoreAdj|expected a 32-bit integer, got a decimal number",
        "'logging:\n  vmodule: [3]'|logging.vmodule[0]|expected an object, got an integer",
        "'kproxy:\n  snapshotInterval: many'|kproxy.snapshotInterval|expected an integer, got a string",
    })
    void wrongType(String yaml, String path, String reason) {
        FieldError e = onlyError(() -> ConfigLoader.load(HEADER + yaml + "\n"));
        assertThat(e.path()).isEqualTo(path);
        assertThat(e.reason()).isEqualTo(reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "iptables.syncPeriod|'iptables:\n  syncPeriod: \"30\"'|30|missing unit",
        "ipvs.tcpTimeout|'ipvs:\n  tcpTimeout: 1d'|1d|unknown unit \"d\"",
        "conntrack.udpTimeout|'conntrack:\n  udpTimeout: 1h 30m'|1h 30m|unknown unit",
        "configSyncPeriod|'configSyncPeriod: 1.5.5s'|1.5.5s|missing unit",
        "iptables.minSyncPeriod|'iptables:\n  minSyncPeriod: .s'|.s|not a duration",
        "kproxy.fsyncWindow|'kproxy:\n  fsyncWindow: 9223372036854775808ns'|9223372036854775808ns|out of range",
    })
    void badDuration(String path, String yaml, String value, String reason) {
        FieldError e = onlyError(() -> ConfigLoader.load(HEADER + yaml + "\n"));
        assertThat(e.path()).isEqualTo(path);
        assertThat(e.value()).isEqualTo(value);
        assertThat(e.reason()).contains(reason);
    }

    @Test
    void goDurationSyntaxIsAccepted() {
        ProxyConfig c = ConfigLoader.load(HEADER + "configSyncPeriod: 1h2m3.5s\niptables:\n  minSyncPeriod: 300ms\n"
                + "conntrack:\n  udpTimeout: \"0\"\n  udpStreamTimeout: 2m\n");
        assertThat(c.configSyncPeriod()).isEqualTo(Duration.ofMillis(3_723_500));
        assertThat(c.iptables().minSyncPeriod()).isEqualTo(Duration.ofMillis(300));
        assertThat(c.conntrack().udpStreamTimeout()).isEqualTo(Duration.ofMinutes(2));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "mode|kernelspace|iptables, ipvs, nftables or blank",
        "mode|IPVS|iptables, ipvs, nftables or blank",
        "mode|userspace|iptables, ipvs, nftables or blank",
        "detectLocalMode|Guess|ClusterCIDR, NodeCIDR, BridgeInterface, InterfaceNamePrefix or blank",
    })
    void badEnum(String field, String value, String allowed) {
        FieldError e = onlyError(() -> ConfigLoader.load(HEADER + field + ": " + value + "\n"));
        assertThat(e.path()).isEqualTo(field);
        assertThat(e.value()).isEqualTo(value);
        assertThat(e.reason()).startsWith("unsupported value: must be " + allowed);
        FieldError k = onlyError(() -> ConfigLoader.load(HEADER + "kproxy:\n  eventLog:\n    type: zookeeper\n"));
        assertThat(k.path()).isEqualTo("kproxy.eventLog.type");
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "iptables.masqueradeBit|'iptables:\n  masqueradeBit: 2147483648'",
        "conntrack.min|'conntrack:\n  min: -2147483649'",
        "logging.verbosity|'logging:\n  verbosity: -1'",
        "logging.verbosity|'logging:\n  verbosity: 4294967296'",
        "clientConnection.burst|'clientConnection:\n  burst: 99999999999'",
    })
    void integerOutOfItsGoType(String path, String yaml) {
        FieldError e = onlyError(() -> ConfigLoader.load(HEADER + yaml + "\n"));
        assertThat(e.path()).isEqualTo(path);
        assertThat(e.reason()).startsWith("expected a");
    }

    @Test
    void apiVersionAndKindAreRequiredAndChecked() {
        FieldError v = onlyError(() -> ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1beta1\nkind: KubeProxyConfiguration\n"));
        assertThat(v.path()).isEqualTo("apiVersion");
        assertThat(v.reason()).contains("must be kubeproxy.config.k8s.io/v1alpha1 or kubeproxy.config.k8s.io/v1alpha2");
        // options_test.go TestLoadConfigFailures "Bad config type test".
        FieldError k = onlyError(() -> ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeSchedulerConfiguration\n"));
        assertThat(k.path()).isEqualTo("kind");
        assertThat(k.value()).isEqualTo("KubeSchedulerConfiguration");
        assertThatThrownBy(() -> ConfigLoader.load("mode: ipvs\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.errors()).extracting(FieldError::path)
                        .containsExactly("apiVersion", "kind"))
                .hasMessageContaining("apiVersion: required");
    }

    @Test
    void aDocumentThatIsNotAnObjectIsRefused() {
        // options_test.go TestLoadConfigFailures "Decode error test".
        FieldError e = onlyError(() -> ConfigLoader.load("Twas bryllyg, and ye slythy toves"));
        assertThat(e.path()).isEmpty();
        assertThat(e.reason()).contains("expected a KubeProxyConfiguration object");
        assertThat(onlyError(() -> ConfigLoader.load("")).value()).isEqualTo("an empty document");
    }

    @Test
    void yamlSyntaxErrorHasLineAndColumn() {
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "iptables:\n  masqueradeBit: 14\n bad indent: 1\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> {
                    assertThat(e.line()).isPresent();
                    assertThat(e.line().getAsInt()).isBetween(4, 5);
                    assertThat(e.column()).isPresent();
                })
                .hasMessageStartingWith("syntax error at line ");
    }

    @Test
    void duplicateFieldIsRefused() {
        // Upstream's strict decoder refuses it too (v1alpha1 then falls back to a lenient decoder; kproxy does not).
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "bindAddress: 9.8.7.6\nbindAddress: 9.8.7.6\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).hasValue(4))
                .hasMessageContaining("Duplicate field 'bindAddress'");
    }

    @Test
    void allBindingErrorsAreCollected() {
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "foo: 1\nmode: fast\niptables:\n  syncPeriod: soon\n  bar: 2\n"
                + "nodePortAddresses: [1, 2]\nkproxy:\n  retention:\n    maxAge: forever\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.errors()).extracting(FieldError::path)
                        .containsExactlyInAnyOrder("foo", "mode", "iptables.syncPeriod", "iptables.bar", "nodePortAddresses[0]",
                                "nodePortAddresses[1]", "kproxy.retention.maxAge"))
                .hasMessageContaining("(7 errors)");
    }

    @Test
    void flushFrequencyTakesNanosecondsOrDuration() {
        // component-base TimeOrMetaDuration.
        assertThat(ConfigLoader.load(HEADER + "logging:\n  flushFrequency: 1000000000\n").logging().flushFrequency())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(ConfigLoader.load(HEADER + "logging:\n  flushFrequency: 2s\n").logging().flushFrequency())
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void fromTreeIsStrictButDoesNotDefault() {
        Json.Obj tree = ConfigTrees.toTree(ConfigTrees.defaults());
        assertThat(ConfigTrees.fromTree(tree.with("iptables", tree.object("iptables").with("minSyncPeriod", Json.of("0s"))))
                .iptables().minSyncPeriod()).isZero();
        assertThatThrownBy(() -> ConfigTrees.fromTree(tree.with("extra", Json.of(1)))).hasMessageContaining("extra: unknown field");
    }
}
