package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigException;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ConfigVersion;
import io.kproxy.config.FieldError;
import io.kproxy.config.ProxyConfig;
import io.kproxy.model.Json;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Strict fields per version: a field of the other version is refused with its name and the field
 * to use instead; validation errors of a v1alpha2 document carry v1alpha2 paths.
 */
class VersionStrictnessTest {

    private static final String V1 = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";
    private static final String V2 = "apiVersion: kubeproxy.config.k8s.io/v1alpha2\nkind: KubeProxyConfiguration\n";

    private static List<FieldError> errors(String text) {
        try {
            ConfigLoader.load(text);
        } catch (ConfigException e) {
            return e.errors();
        }
        throw new AssertionError("accepted:\n" + text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bindAddress: 10.0.0.1                   | bindAddress              | nodeIPOverride",
            "healthzBindAddress: 0.0.0.0:10256       | healthzBindAddress       | healthzBindAddresses",
            "metricsBindAddress: 127.0.0.1:10249     | metricsBindAddress       | metricsBindAddresses",
            "bindAddressHardFail: true               | bindAddressHardFail      | configHardFail",
            "clusterCIDR: 10.0.0.0/8                 | clusterCIDR              | detectLocal.clusterCIDRs",
            "oomScoreAdj: -999                       | oomScoreAdj              | linux.oomScoreAdj",
            "'conntrack: {min: 1}'                   | conntrack                | linux.conntrack",
            "portRange: 1-2                          | portRange                | nothing",
            "windowsRunAsService: true               | windowsRunAsService      | windows.runAsService",
            "'iptables: {syncPeriod: 5s}'            | iptables.syncPeriod      | syncPeriod",
            "'iptables: {masqueradeAll: true}'       | iptables.masqueradeAll   | linux.masqueradeAll",
            "'nftables: {minSyncPeriod: 5s}'         | nftables.minSyncPeriod   | minSyncPeriod",
            "'ipvs: {syncPeriod: 5s}'                | ipvs.syncPeriod          | syncPeriod"})
    void aV1alpha1FieldInV1alpha2IsRefusedByName(String line, String path, String instead) {
        assertThat(errors(V2 + line + "\n")).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo(path);
            assertThat(e.reason()).startsWith("unknown field in kubeproxy.config.k8s.io/v1alpha2 (a v1alpha1 field; v1alpha2 has ")
                    .contains(instead);
        });
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'nodeIPOverride: [10.0.0.1]'            | nodeIPOverride           | bindAddress",
            "'healthzBindAddresses: [0.0.0.0/0]'     | healthzBindAddresses     | healthzBindAddress",
            "healthzBindPort: 1                      | healthzBindPort          | healthzBindAddress",
            "metricsBindPort: 1                      | metricsBindPort          | metricsBindAddress",
            "configHardFail: true                    | configHardFail           | bindAddressHardFail",
            "'detectLocal: {clusterCIDRs: []}'       | detectLocal.clusterCIDRs | clusterCIDR",
            "'linux: {oomScoreAdj: 1}'               | linux                    | oomScoreAdj",
            "'windows: {runAsService: true}'         | windows                  | windowsRunAsService",
            "syncPeriod: 5s                          | syncPeriod               | iptables/ipvs/nftables.syncPeriod",
            "minSyncPeriod: 5s                       | minSyncPeriod            | iptables/ipvs/nftables.minSyncPeriod",
            "'ipvs: {masqueradeBit: 3}'              | ipvs.masqueradeBit       | iptables.masqueradeBit"})
    void aV1alpha2FieldInV1alpha1IsRefusedByName(String line, String path, String instead) {
        assertThat(errors(V1 + line + "\n")).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo(path);
            assertThat(e.reason()).startsWith("unknown field in kubeproxy.config.k8s.io/v1alpha1 (a v1alpha2 field; v1alpha1 has ")
                    .contains(instead);
        });
    }

    @Test
    void unknownAndDuplicateFieldsAreRefusedInV1alpha2() {
        // server_test.go TestLoadConfigFailures "unknown field in v1alpha2", "duplicate fields in v1alpha2".
        assertThat(errors(V2 + "foo: bar\n")).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("foo");
            assertThat(e.reason()).isEqualTo("unknown field");
        });
        assertThatThrownBy(() -> ConfigLoader.load(V2 + "mode: iptables\nmode: ipvs\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("mode");
        assertThat(errors(V2.replace("KubeProxyConfiguration", "KubeletConfiguration"))).extracting(FieldError::path).containsExactly("kind");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'linux: {conntrack: {min: -1}}'                     | linux.conntrack.min",
            "'linux: {conntrack: {udpTimeout: 500ms}}'           | linux.conntrack.udpTimeout",
            "'linux: {oomScoreAdj: 1001}'                        | linux.oomScoreAdj",
            "'syncPeriod: 1s\nminSyncPeriod: 2s'                 | syncPeriod",
            "'mode: ipvs\nipvs: {masqueradeBit: 40}'             | ipvs.masqueradeBit",
            "'mode: ipvs\niptables: {masqueradeBit: 40}'         | iptables.masqueradeBit",
            "'mode: nftables\nnftables: {masqueradeBit: 32}'     | nftables.masqueradeBit",
            "'detectLocal: {clusterCIDRs: [10.0.0.0/33]}'        | detectLocal.clusterCIDRs",
            "'nodeIPOverride: [not-an-ip]'                       | nodeIPOverride",
            "'healthzBindAddresses: [192.168.11.0/24]'           | healthzBindAddresses",
            "'metricsBindAddresses: [10.0.0.1/32, 10.0.0.2/32]'  | metricsBindAddresses",
            "'healthzBindAddresses: [nope]'                      | healthzBindAddresses[0]",
            "healthzBindPort: 98765                              | healthzBindPort",
            "'nodePortAddresses: [bogus]'                        | nodePortAddresses[0]",
            "'nodeIPOverride: [\"10.0.0.1,10.0.0.2\"]'             | nodeIPOverride[0]",
            "'detectLocal: {clusterCIDRs: [\"10.0.0.0/8,fd00::/64\"]}' | detectLocal.clusterCIDRs[0]"})
    void validationErrorsOfAV1alpha2DocumentHaveV1alpha2Paths(String lines, String path) {
        assertThat(errors(V2 + lines.replace("\\n", "\n") + "\n")).extracting(FieldError::path).containsExactly(path);
    }

    @Test
    void theSyncPeriodMessageNamesV1alpha2Fields() {
        assertThat(errors(V2 + "syncPeriod: 1s\nminSyncPeriod: 2s\n")).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo("must be greater than or equal to minSyncPeriod"));
        assertThat(errors(V1 + "iptables: {syncPeriod: 1s, minSyncPeriod: 2s}\n")).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo("must be greater than or equal to iptables.minSyncPeriod"));
    }

    @Test
    void aV1alpha2DocumentIsReadByTheSameHardenedReader() {
        assertThatThrownBy(() -> ConfigLoader.load(V2 + "detectLocal:\n  clusterCIDRs: &c [10.0.0.0/8]\nnodePortAddresses: *c\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("YAML aliases (*c) are not supported");
        String huge = V2 + "hostnameOverride: \"" + "a".repeat(TextLimits.CONFIG.maxFileBytes()) + "\"\n";
        assertThatThrownBy(() -> ConfigLoader.load(huge)).isInstanceOf(ConfigException.class);
    }

    @Test
    void v1alpha2CannotDisableAServerSoWritingSuchAConfigIsRefused() {
        // As --metrics-bind-address "" leaves it (a file's empty value is defaulted).
        ProxyConfig noMetrics = ConfigTrees.fromTree(ConfigTrees.toTree(ConfigTrees.defaults()).with("metricsBindAddress", Json.of("")));
        assertThatThrownBy(() -> ConfigTrees.toTree(noMetrics, ConfigVersion.V1ALPHA2)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("metricsBindAddress").hasMessageContaining("cannot express");
    }
}
