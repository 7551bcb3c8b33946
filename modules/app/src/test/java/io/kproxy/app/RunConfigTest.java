package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.Availability;
import io.kproxy.config.ConntrackConfig;
import io.kproxy.config.IpvsConfig;
import io.kproxy.config.ProxyMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Flag and file precedence as upstream's {@code options.go}, and refusals that name the flag. */
class RunConfigTest {

    private static ConfigFlags flags(String... args) {
        RunCommand cmd = new RunCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd.flags;
    }

    /** Resolution as if every mode and event log were built in (availability has its own test, RunRefusesBeforeBindingTest). */
    private static RunConfig.Resolved resolve(Optional<Path> file, ConfigFlags flags, Optional<String> hostname) throws RunConfig.Refused {
        return RunConfig.resolve(file, flags, hostname, Availability.EVERYTHING);
    }

    @Test
    void flagsChangeTheDefaults() throws Exception {
        RunConfig.Resolved r = resolve(Optional.empty(), flags("--proxy-mode", "nftables", "--cluster-cidr", "10.0.0.0/16",
                "--iptables-min-sync-period", "0s", "--iptables-sync-period", "2s", "--nodeport-addresses", "192.168.0.0/24,primary",
                "--masquerade-all", "--journal-dir", "/tmp/j", "--healthz-bind-address", "127.0.0.1:20256"), Optional.of("Node-A "));
        assertThat(r.node().value()).isEqualTo("node-a");
        assertThat(r.config().mode()).isEqualTo(ProxyMode.NFTABLES);
        assertThat(r.config().clusterCIDR()).isEqualTo("10.0.0.0/16");
        // Flags are applied after defaulting, so 0 stays 0 (a file's 0s would be defaulted to 1s).
        assertThat(r.config().minSyncPeriod()).isZero();
        assertThat(r.config().syncPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(r.config().nodePortAddresses()).containsExactly("192.168.0.0/24", "primary");
        assertThat(r.config().masqueradeAll()).isTrue();
        assertThat(r.config().kproxy().journalDir()).isEqualTo("/tmp/j");
        assertThat(r.config().healthzBindAddress()).isEqualTo("127.0.0.1:20256");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void conntrackFlagsSetTheConntrackSection() throws Exception {
        // Upstream's cmd/kube-proxy/app/options.go conntrack flags.
        RunConfig.Resolved r = resolve(Optional.empty(), flags("--conntrack-max-per-core", "0", "--conntrack-min", "7",
                "--conntrack-tcp-timeout-established", "2h", "--conntrack-tcp-timeout-close-wait", "30m", "--conntrack-tcp-be-liberal",
                "--conntrack-udp-timeout", "30s", "--conntrack-udp-timeout-stream", "5m"), Optional.of("n"));
        assertThat(r.config().conntrack()).isEqualTo(new ConntrackConfig(0, 7, Duration.ofHours(2), Duration.ofMinutes(30), true,
                Duration.ofSeconds(30), Duration.ofMinutes(5)));
        assertThat(resolve(Optional.empty(), flags("--conntrack-tcp-be-liberal=false"), Optional.of("n")).config().conntrack().tcpBeLiberal())
                .isFalse();
        assertThatThrownBy(() -> resolve(Optional.empty(), flags("--conntrack-udp-timeout", "500ms"), Optional.of("n")))
                .isInstanceOf(RunConfig.Refused.class).hasMessageContaining("--conntrack-udp-timeout (conntrack.udpTimeout");
    }

    @Test
    void ipvsFlagsSetTheIpvsSection() throws Exception {
        // Upstream's cmd/kube-proxy/app/options.go ipvs flags.
        RunConfig.Resolved r = resolve(Optional.empty(), flags("--proxy-mode", "ipvs", "--ipvs-scheduler", "wrr", "--ipvs-sync-period", "1m",
                "--ipvs-min-sync-period", "2s", "--ipvs-exclude-cidrs", "10.96.0.0/12, fd00:96::/108", "--ipvs-strict-arp",
                "--ipvs-tcp-timeout", "15m", "--ipvs-tcpfin-timeout", "2m", "--ipvs-udp-timeout", "5m"), Optional.of("n"));
        assertThat(r.config().ipvs()).isEqualTo(new IpvsConfig(Duration.ofMinutes(1), Duration.ofSeconds(2), "wrr",
                List.of("10.96.0.0/12", "fd00:96::/108"), true, Duration.ofMinutes(15), Duration.ofMinutes(2), Duration.ofMinutes(5)));
        assertThat(r.config().syncPeriod()).isEqualTo(Duration.ofMinutes(1));
        assertThat(resolve(Optional.empty(), flags("--ipvs-strict-arp=false"), Optional.of("n")).config().ipvs().strictARP()).isFalse();
    }

    @Test
    void badIpvsFlagsAreRefusedWithTheFlagTheFieldAndTheReason() {
        assertThatThrownBy(() -> resolve(Optional.empty(), flags("--proxy-mode", "ipvs", "--ipvs-scheduler", "fastest", "--ipvs-exclude-cidrs",
                "10.96.0.0/12,nope", "--ipvs-tcp-timeout", "-1s", "--ipvs-tcpfin-timeout", "-2s", "--ipvs-udp-timeout", "-3s",
                "--ipvs-sync-period", "0s"), Optional.of("n")))
                .isInstanceOf(RunConfig.Refused.class)
                .hasMessageContaining("invalid flags (6 errors)")
                .hasMessageContaining("--ipvs-scheduler (ipvs.scheduler: must be one of rr, wrr, lc, wlc, lblc, lblcr, sh, dh, sed, nq, mh, "
                        + "or blank for rr (value \"fastest\"))")
                .hasMessageContaining("--ipvs-exclude-cidrs (ipvs.excludeCIDRs[1]: must be a valid CIDR (value \"nope\"))")
                .hasMessageContaining("--ipvs-tcp-timeout (ipvs.tcpTimeout: must be greater than or equal to 0")
                .hasMessageContaining("--ipvs-tcpfin-timeout (ipvs.tcpFinTimeout: must be greater than or equal to 0")
                .hasMessageContaining("--ipvs-udp-timeout (ipvs.udpTimeout: must be greater than or equal to 0")
                .hasMessageContaining("--ipvs-sync-period (ipvs.syncPeriod: must be greater than 0");
        assertThatThrownBy(() -> resolve(Optional.empty(), flags("--proxy-mode", "ipvs", "--ipvs-min-sync-period", "1h"), Optional.of("n")))
                .isInstanceOf(RunConfig.Refused.class).hasMessageContaining("ipvs.syncPeriod: must be greater than or equal to ipvs.minSyncPeriod");
        assertThatThrownBy(() -> resolve(Optional.empty(), flags("--ipvs-udp-timeout", "soon"), Optional.of("n")))
                .isInstanceOf(RunConfig.Refused.class).hasMessageContaining("--ipvs-udp-timeout (ipvs.udpTimeout: not a duration");
    }

    @Test
    void withAConfigFileTheIpvsFlagsAreIgnoredAsUpstream(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.yaml");
        Files.writeString(file, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n"
                + "ipvs: {scheduler: sh, udpTimeout: 10s}\n");
        RunConfig.Resolved r = resolve(Optional.of(file), flags("--ipvs-scheduler", "lc"), Optional.of("n"));
        assertThat(r.config().ipvs().scheduler()).isEqualTo("sh");
        assertThat(r.config().ipvs().udpTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(r.warnings()).containsExactly("flag --ipvs-scheduler is ignored because --config is given");
    }

    @Test
    void writeConfigToCarriesTheIpvsFlags(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("written.yaml");
        // This build cannot run ipvs mode (--write-config-to refuses what run would), so another mode: the section goes with it.
        int code = new CommandLine(new RunCommand()).execute("--proxy-mode", "nftables", "--hostname-override", "n", "--ipvs-scheduler", "mh",
                "--ipvs-exclude-cidrs", "10.96.0.0/12", "--ipvs-strict-arp", "--ipvs-tcp-timeout", "15m", "--ipvs-tcpfin-timeout", "2m",
                "--ipvs-udp-timeout", "5m", "--write-config-to", out.toString());
        assertThat(code).isZero();
        Path again = dir.resolve("again.yaml");
        Files.copy(out, again);
        IpvsConfig ipvs = resolve(Optional.of(again), flags(), Optional.empty()).config().ipvs();
        assertThat(ipvs.scheduler()).isEqualTo("mh");
        assertThat(ipvs.excludeCIDRs()).containsExactly("10.96.0.0/12");
        assertThat(ipvs.strictARP()).isTrue();
        assertThat(List.of(ipvs.tcpTimeout(), ipvs.tcpFinTimeout(), ipvs.udpTimeout()))
                .containsExactly(Duration.ofMinutes(15), Duration.ofMinutes(2), Duration.ofMinutes(5));
    }

    @Test
    void aV1alpha2ConfigFileIsRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.yaml");
        Files.writeString(file, "apiVersion: kubeproxy.config.k8s.io/v1alpha2\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "linux: {conntrack: {min: -1}}\n");
        assertThatThrownBy(() -> resolve(Optional.of(file), flags(), Optional.of("n"))).isInstanceOf(RunConfig.Refused.class)
                .hasMessageContaining("linux.conntrack.min");
        Files.writeString(file, "apiVersion: kubeproxy.config.k8s.io/v1alpha2\nkind: KubeProxyConfiguration\nmode: nftables\n");
        assertThat(resolve(Optional.of(file), flags(), Optional.of("n")).config().mode()).isEqualTo(ProxyMode.NFTABLES);
    }

    @Test
    void withAConfigFileMappedFlagsAreIgnoredButTheHostnameOverrideWins(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.yaml");
        Files.writeString(file, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "hostnameOverride: from-file\n");
        RunConfig.Resolved r = resolve(Optional.of(file), flags("--proxy-mode", "iptables", "--cluster-cidr", "10.1.0.0/16"),
                Optional.of("from-flag"));
        assertThat(r.config().mode()).isEqualTo(ProxyMode.NFTABLES);
        assertThat(r.config().clusterCIDR()).isEmpty();
        assertThat(r.node().value()).isEqualTo("from-flag");
        assertThat(r.warnings()).containsExactlyInAnyOrder("flag --cluster-cidr is ignored because --config is given",
                "flag --proxy-mode is ignored because --config is given");
        assertThat(resolve(Optional.of(file), flags(), Optional.empty()).node().value()).isEqualTo("from-file");
    }

    @Test
    void badFlagsAreRefusedWithTheFlagAndTheReason() {
        assertThatThrownBy(() -> resolve(Optional.empty(), flags("--proxy-mode", "bogus", "--iptables-sync-period", "soon"),
                Optional.of("n")))
                .isInstanceOf(RunConfig.Refused.class)
                .hasMessageContaining("--proxy-mode (mode: unsupported value")
                .hasMessageContaining("--iptables-sync-period (iptables.syncPeriod: not a duration");
        assertThatThrownBy(() -> resolve(Optional.empty(), flags("--cluster-cidr", "10.0.0.0/33"), Optional.of("n")))
                .isInstanceOf(RunConfig.Refused.class).hasMessageContaining("--cluster-cidr (clusterCIDR");
    }

    @Test
    void aBadConfigFileIsRefusedWithItsFieldAndReason(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.yaml");
        Files.writeString(file, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "iptables:\n  masqueradeBit: 40\nbogusField: 1\n");
        assertThatThrownBy(() -> resolve(Optional.of(file), flags(), Optional.of("n"))).isInstanceOf(RunConfig.Refused.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("bogusField");
    }

    @Test
    void anInvalidNodeNameIsRefused() {
        assertThatThrownBy(() -> resolve(Optional.empty(), flags(), Optional.of("not a name!")))
                .isInstanceOf(RunConfig.Refused.class).hasMessageContaining("hostnameOverride: must be a valid node name")
                .hasMessageContaining("\"not a name!\"");
    }

    /** Issue 19, item 9: the flag was used as the node name but left out of the written configuration. */
    @Test
    void writeConfigToCarriesTheHostnameOverrideFlag(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("written.yaml");
        int code = new CommandLine(new RunCommand()).execute("--proxy-mode", "iptables", "--hostname-override", " Node-B ", "--write-config-to",
                out.toString());
        assertThat(code).isZero();
        assertThat(Files.readString(out)).contains("hostnameOverride: node-b\n");
        // With --config too: the flag wins over the file's value, in the configuration as well as in the node name.
        Path file = dir.resolve("c.yaml");
        Files.writeString(file, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nhostnameOverride: from-file\n");
        RunConfig.Resolved r = resolve(Optional.of(file), flags(), Optional.of("From-Flag"));
        assertThat(r.config().hostnameOverride()).isEqualTo("from-flag");
        assertThat(r.node().value()).isEqualTo("from-flag");
        assertThat(resolve(Optional.of(file), flags(), Optional.empty()).config().hostnameOverride()).isEqualTo("from-file");
    }
}
