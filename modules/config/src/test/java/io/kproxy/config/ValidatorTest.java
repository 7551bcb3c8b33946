package io.kproxy.config;

import static io.kproxy.config.Trees.defaultsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.kproxy.model.Json;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Upstream: pkg/proxy/apis/config/validation/validation_test.go and field_paths_test.go (v1alpha1 paths). */
class ValidatorTest {

    private static List<String> paths(ProxyConfig c) {
        return Validator.validate(c).stream().map(FieldError::path).toList();
    }

    @Test
    void defaultsAreValid() {
        assertThat(Validator.validate(ConfigTrees.defaults())).isEmpty();
    }

    static Stream<Arguments> fieldPaths() {
        return Stream.of(
                Arguments.of("addresses and iptables", defaultsWith("bindAddress", "10.10.12.11:2000", "healthzBindAddress", "0.0.0.0",
                        "metricsBindAddress", "127.0.0.1", "iptables.masqueradeBit", 32),
                        List.of("bindAddress", "healthzBindAddress", "metricsBindAddress", "iptables.masqueradeBit")),
                Arguments.of("flattened linux fields", defaultsWith("oomScoreAdj", 1001, "conntrack.maxPerCore", -1, "conntrack.min", -1,
                        "conntrack.tcpEstablishedTimeout", "-1s", "conntrack.tcpCloseWaitTimeout", "-1s", "conntrack.udpTimeout", "-1s",
                        "conntrack.udpStreamTimeout", "-1s"),
                        List.of("oomScoreAdj", "conntrack.maxPerCore", "conntrack.min", "conntrack.tcpEstablishedTimeout",
                                "conntrack.tcpCloseWaitTimeout", "conntrack.udpTimeout", "conntrack.udpStreamTimeout")),
                Arguments.of("ipvs", defaultsWith("mode", "ipvs", "ipvs.tcpTimeout", "-1s", "ipvs.tcpFinTimeout", "-1s", "ipvs.udpTimeout", "-1s",
                        "ipvs.excludeCIDRs", new String[] {"192.168.0.0/16", "invalid"}),
                        List.of("ipvs.tcpTimeout", "ipvs.tcpFinTimeout", "ipvs.udpTimeout", "ipvs.excludeCIDRs[1]")),
                Arguments.of("ipvs fields unchecked in iptables mode", defaultsWith("ipvs.tcpTimeout", "-1s"), List.of()),
                Arguments.of("nftables", defaultsWith("mode", "nftables", "nftables.masqueradeBit", 32), List.of("nftables.masqueradeBit")),
                Arguments.of("nftables bit unchecked in iptables mode", defaultsWith("nftables.masqueradeBit", 32), List.of()),
                Arguments.of("other top level fields", defaultsWith("clientConnection.burst", -1, "configSyncPeriod", "-1s",
                        "nodePortAddresses", new String[] {"192.168.0.0/16", "invalid"}, "showHiddenMetricsForVersion", "invalid",
                        "logging.format", "invalid"),
                        List.of("clientConnection.burst", "configSyncPeriod", "nodePortAddresses[1]", "showHiddenMetricsForVersion",
                                "logging.format")),
                Arguments.of("bridge interface", defaultsWith("detectLocalMode", "BridgeInterface"), List.of("detectLocal.bridgeInterface")),
                Arguments.of("interface name prefix", defaultsWith("detectLocalMode", "InterfaceNamePrefix"),
                        List.of("detectLocal.interfaceNamePrefix")),
                Arguments.of("malformed cluster CIDR", defaultsWith("clusterCIDR", "192.168.0.0/16,invalid"), List.of("clusterCIDR")),
                Arguments.of("single stack cluster CIDR pair", defaultsWith("clusterCIDR", "192.168.0.0/16,10.0.0.0/8"), List.of("clusterCIDR")),
                Arguments.of("three cluster CIDRs", defaultsWith("clusterCIDR", "10.0.0.0/8,fd00::/64,10.1.0.0/16"), List.of("clusterCIDR")),
                Arguments.of("dual-stack cluster CIDR", defaultsWith("clusterCIDR", "10.0.0.0/8,fd00::/64"), List.of()),
                Arguments.of("cluster CIDR checked in NodeCIDR mode too (kproxy)", defaultsWith("detectLocalMode", "NodeCIDR",
                        "clusterCIDR", "garbage"), List.of("clusterCIDR")),
                Arguments.of("comma-separated node IP override", defaultsWith("bindAddress", "10.0.0.1,fd00::1"), List.of()),
                Arguments.of("empty servers disable them", defaultsWith("healthzBindAddress", "", "metricsBindAddress", ""), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fieldPaths")
    void reportsV1alpha1FieldPaths(String name, ProxyConfig config, List<String> expected) {
        assertThat(paths(config)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @ParameterizedTest(name = "{0}: sync {1} min {2}")
    @CsvSource(delimiter = '|', value = {
        "iptables|0s|0s|syncPeriod|must be greater than 0",
        "iptables|1s|-1s|minSyncPeriod|must be greater than or equal to 0",
        "iptables|1s|2s|syncPeriod|must be greater than or equal to iptables.minSyncPeriod",
        "ipvs|0s|0s|syncPeriod|must be greater than 0",
        "ipvs|1s|-1s|minSyncPeriod|must be greater than or equal to 0",
        "ipvs|1s|2s|syncPeriod|must be greater than or equal to ipvs.minSyncPeriod",
        "nftables|0s|0s|syncPeriod|must be greater than 0",
        "nftables|1s|-1s|minSyncPeriod|must be greater than or equal to 0",
        "nftables|1s|2s|syncPeriod|must be greater than or equal to nftables.minSyncPeriod",
    })
    void syncPeriodsOfTheModeInForce(String mode, String sync, String min, String field, String reason) {
        // TestValidateV1Alpha1SyncPeriodPaths: exactly one error, on the mode's own section.
        List<FieldError> errs = Validator.validate(defaultsWith("mode", mode, mode + ".syncPeriod", sync, mode + ".minSyncPeriod", min));
        assertThat(errs).hasSize(1);
        assertThat(errs.getFirst().path()).isEqualTo(mode + "." + field);
        assertThat(errs.getFirst().reason()).isEqualTo(reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
        "0.0.0.0:10256|none", "127.0.0.1:10256|none", "10.10.10.10:10256|none", "[::]:10256|none", "[fd00::1]:1|none",
        "10.10.10.10|must be IP:port", "123.456.789.10:12345|must be a valid IP", "10.10.10.10:foo|must be a valid port",
        "10.10.10.10:0|must be a valid port", "10.10.10.10:65536|must be a valid port", "localhost:10256|must be a valid IP",
        "::1:10256|must be IP:port", ":10256|must be a valid IP",
    })
    void hostPort(String address, String reason) {
        // TestValidateHostPort.
        List<FieldError> errs = Validator.validate(defaultsWith("healthzBindAddress", address));
        if (reason == null) {
            assertThat(errs).isEmpty();
        } else {
            assertThat(errs).extracting(FieldError::path, FieldError::reason).containsExactly(tuple(
                    "healthzBindAddress", reason));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.0/8", "0.0.0.0/0", "::/0", "127.0.0.1/32,1.2.3.0/24", "::1/128", "10.20.30.40/16",
        "2001:db8::/32", "primary", "all", "localhost", "primary,10.0.0.0/8", "localhost,all"})
    void validNodePortAddresses(String list) {
        assertThat(Validator.validate(defaultsWith("nodePortAddresses", list.split(",")))).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "foo|0", "10.0.0.0/0,1.2.3|1", "127.0.0.1/32,0,1.2.3.0/24|1", "127.0.0.1/32,10.20.30.40,1.2.3.0/24|1",
        "::1/128,2001:db8::/32,2001:db8:xyz/64|2", "Primary|0", "' 10.0.0.0/8'|0",
    })
    void invalidNodePortAddresses(String list, int badIndex) {
        assertThat(paths(defaultsWith("nodePortAddresses", list.split(",")))).containsExactly("nodePortAddresses[" + badIndex + "]");
    }

    @Test
    void interfaceNamesMustBeLinuxNames() {
        assertThat(paths(defaultsWith("detectLocalMode", "BridgeInterface", "detectLocal.bridgeInterface", "cbr0"))).isEmpty();
        assertThat(paths(defaultsWith("detectLocalMode", "InterfaceNamePrefix", "detectLocal.interfaceNamePrefix", "veth"))).isEmpty();
        assertThat(paths(defaultsWith("detectLocal.bridgeInterface", "br0\" accept"))).containsExactly("detectLocal.bridgeInterface");
        assertThat(paths(defaultsWith("detectLocal.interfaceNamePrefix", "a-very-long-prefix"))).containsExactly("detectLocal.interfaceNamePrefix");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"''|true", "2-7|true", "300-2000|true", "5000|true", "100+10|true", "7-2|false", "1-65536|false",
        "abc|false", "1-2-3|false", "1+2-3|false", "65535+1|false"})
    void portRange(String range, boolean valid) {
        assertThat(paths(defaultsWith("portRange", range))).isEqualTo(valid ? List.of() : List.of("portRange"));
    }

    @Test
    void loggingRules() {
        assertThat(paths(defaultsWith("logging.format", "json"))).isEmpty();
        ProxyConfig c = ConfigTrees.fromTree(Trees.set(ConfigTrees.toTree(ConfigTrees.defaults()), "logging", Json.obj(
                "format", Json.of("json"), "flushFrequency", Json.of("1s"), "verbosity", Json.of(10),
                "vmodule", Json.arr(Json.obj("filePattern", Json.of("foo.go"), "verbosity", Json.of(6)),
                        Json.obj("filePattern", Json.of(""), "verbosity", Json.of(1)), Json.obj("filePattern", Json.of("a=b"), "verbosity", Json.of(1))),
                "options", Json.obj("json", Json.obj("infoBufferSize", Json.of("64Ki")), "text", Json.obj("infoBufferSize", Json.of("lots"))))));
        assertThat(paths(c)).containsExactly("logging.vmodule", "logging.vmodule[1]", "logging.vmodule[2]",
                "logging.options.text.infoBufferSize");
    }

    @Test
    void ipvsSchedulerNameIsChecked() {
        assertThat(paths(defaultsWith("mode", "ipvs", "ipvs.scheduler", "wrr"))).isEmpty();
        assertThat(paths(defaultsWith("mode", "ipvs", "ipvs.scheduler", "rr;rm"))).containsExactly("ipvs.scheduler");
    }

    static Stream<Arguments> kproxyRules() {
        return Stream.of(
                Arguments.of(defaultsWith("kproxy.journalDir", "journal"), "kproxy.journalDir"),
                Arguments.of(defaultsWith("kproxy.fsyncWindow", "0s"), "kproxy.fsyncWindow"),
                Arguments.of(defaultsWith("kproxy.snapshotInterval", 99), "kproxy.snapshotInterval"),
                Arguments.of(defaultsWith("kproxy.retention.maxAge", "-1h"), "kproxy.retention.maxAge"),
                Arguments.of(defaultsWith("kproxy.retention.maxBytes", 0), "kproxy.retention.maxBytes"),
                Arguments.of(defaultsWith("kproxy.eventLog.type", "kafka", "kproxy.eventLog.kafka.topic", "t", "kproxy.eventLog.kafka.cluster", "c"),
                        "kproxy.eventLog.kafka.bootstrapServers"),
                Arguments.of(defaultsWith("kproxy.eventLog.type", "kafka", "kproxy.eventLog.kafka.bootstrapServers", "k:9092",
                        "kproxy.eventLog.kafka.cluster", "c"), "kproxy.eventLog.kafka.topic"),
                Arguments.of(defaultsWith("kproxy.eventLog.type", "kafka", "kproxy.eventLog.kafka.bootstrapServers", "k:9092",
                        "kproxy.eventLog.kafka.topic", "t"), "kproxy.eventLog.kafka.cluster"),
                Arguments.of(defaultsWith("kproxy.eventLog.kafka.bootstrapServers", "k:9092,k2"), "kproxy.eventLog.kafka.bootstrapServers"),
                Arguments.of(defaultsWith("kproxy.eventLog.kafka.topic", "bad topic"), "kproxy.eventLog.kafka.topic"),
                Arguments.of(defaultsWith("kproxy.serviceCIDRs", new String[] {"10.96.0.0/12", "nope"}), "kproxy.serviceCIDRs[1]"),
                Arguments.of(defaultsWith("kproxy.adminSocket", "admin.sock"), "kproxy.adminSocket"),
                Arguments.of(defaultsWith("kproxy.adminSocket", "127.0.0.1:10257"), "kproxy.adminSocket"),
                Arguments.of(defaultsWith("kproxy.adminSocket", ""), "kproxy.adminSocket"),
                Arguments.of(defaultsWith("kproxy.adminSocket", "/run/kproxy/"), "kproxy.adminSocket"),
                Arguments.of(defaultsWith("kproxy.adminSocket", "/run/" + "x".repeat(103)), "kproxy.adminSocket"),
                Arguments.of(defaultsWith("kproxy.adminGroup", "ops team"), "kproxy.adminGroup"),
                Arguments.of(defaultsWith("kproxy.adminGroup", "-ops"), "kproxy.adminGroup"),
                Arguments.of(defaultsWith("kproxy.adminGroup", "ops\nx"), "kproxy.adminGroup"),
                Arguments.of(defaultsWith("kproxy.adminGroup", "x".repeat(33)), "kproxy.adminGroup"),
                Arguments.of(defaultsWith("kproxy.adminGroup", "4294967295"), "kproxy.adminGroup"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("kproxyRules")
    void kproxySection(ProxyConfig config, String path) {
        assertThat(paths(config)).containsExactly(path);
    }

    @Test
    void kproxyValidValues() {
        assertThat(paths(defaultsWith("kproxy.adminSocket", "/var/run/kproxy-" + "x".repeat(86) + ".sock", "kproxy.eventLog.type", "kafka",
                "kproxy.eventLog.kafka.bootstrapServers", "kafka-0.kafka.svc:9092, 10.0.0.5:9093", "kproxy.eventLog.kafka.topic",
                "kproxy.events-v1", "kproxy.eventLog.kafka.cluster", "prod-eu-1", "kproxy.serviceCIDRs", new String[] {"10.96.0.0/12", "fd00:10:96::/112"}))).isEmpty();
        for (String group : new String[] {"kproxy-admin", "_ops", "Ops.Team", "machine$", "0", "4294967294", "x".repeat(32)}) {
            assertThat(paths(defaultsWith("kproxy.adminGroup", group))).as(group).isEmpty();
        }
    }

    @Test
    void requireValidListsEveryError() {
        assertThatThrownBy(() -> Validator.requireValid(defaultsWith("iptables.masqueradeBit", -1, "oomScoreAdj", -1001,
                "nodePortAddresses", new String[] {"x"})))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.errors()).hasSize(3))
                .hasMessageContaining("iptables.masqueradeBit: must be within the range [0, 31] (value \"-1\")")
                .hasMessageContaining("oomScoreAdj: must be within the range [-1000, 1000]")
                .hasMessageContaining("nodePortAddresses[0]");
    }
}
