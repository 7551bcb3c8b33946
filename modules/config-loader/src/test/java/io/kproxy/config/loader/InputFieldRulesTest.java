package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.Availability;
import io.kproxy.config.ConfigException;
import io.kproxy.config.KproxyConfig;
import io.kproxy.config.ProxyMode;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 18, defects 5 and 7: field rules that used to be checked late or never: the node name,
 * the fsync window's bounds, free-text lengths, and what this build can run.
 */
class InputFieldRulesTest {

    private static final String HEADER = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "fsync window of an hour|'kproxy:\n  fsyncWindow: 1h'|kproxy.fsyncWindow: must be greater than 0 and at most 1s",
        "fsync window just over|'kproxy:\n  fsyncWindow: 1001ms'|kproxy.fsyncWindow: must be greater than 0 and at most 1s",
        "hostname not a node name|'hostnameOverride: not a name!'|hostnameOverride: must be a valid node name",
        "hostname with a control character|'hostnameOverride: \"a\\nb\"'|hostnameOverride: must be a valid node name",
        "content type too long|'clientConnection:\n  contentType: LONG1025'|clientConnection.contentType: must be at most 1024 characters",
        "journal path too long|'kproxy:\n  journalDir: /LONG4096'|kproxy.journalDir: must be at most 4095 bytes (Linux PATH_MAX)",
        "kubeconfig with a NUL|'clientConnection:\n  kubeconfig: \"/a\\0b\"'|clientConnection.kubeconfig: must not contain a NUL character",
    })
    void refused(String name, String yaml, String expected) {
        String text = HEADER + yaml.replace("LONG1025", "x".repeat(1025)).replace("LONG4096", "d".repeat(4096)) + "\n";
        assertThatThrownBy(() -> ConfigLoader.load(text)).isInstanceOf(ConfigException.class).hasMessageContaining("\n  " + expected);
    }

    @Test
    void aHostnameOfTenMegabytesIsRefusedQuicklyAsAField() {
        String name = "a".repeat(TextLimits.CONFIG.maxScalarChars() - 100);
        long start = System.nanoTime();
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "hostnameOverride: " + name + "\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("hostnameOverride: must be a valid node name: must be at most 253 characters");
        assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
    }

    @Test
    void upperCaseAndBlanksAroundTheHostnameAreAcceptedAsUpstreamTrimsAndLowersThem() {
        assertThat(ConfigLoader.load(HEADER + "hostnameOverride: ' Node-A '\n").hostnameOverride()).isEqualTo(" Node-A ");
    }

    @Test
    void aModeOrEventLogThisBuildLacksIsRefusedByValidation() {
        Availability build = new Availability(EnumSet.of(ProxyMode.IPTABLES, ProxyMode.NFTABLES), EnumSet.of(KproxyConfig.EventLogType.LOCAL));
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "mode: ipvs\n", build)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("\n  mode: has no backend installed in this build (installed: iptables, nftables) (value \"ipvs\")");
        assertThatThrownBy(() -> ConfigLoader.load(HEADER + "kproxy:\n  eventLog:\n    type: kafka\n    kafka:\n      bootstrapServers: k:9092\n"
                + "      topic: t\n", build)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("\n  kproxy.eventLog.type: is not available in this build (available: local) (value \"kafka\")");
        assertThat(ConfigLoader.load(HEADER + "mode: nftables\n", build).mode()).isEqualTo(ProxyMode.NFTABLES);
        // Whatever the build, ipvs is a valid mode to name (render, a recorded configuration).
        assertThat(ConfigLoader.load(HEADER + "mode: ipvs\n").mode()).isEqualTo(ProxyMode.IPVS);
    }
}
