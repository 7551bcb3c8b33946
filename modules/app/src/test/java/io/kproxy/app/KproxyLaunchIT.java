package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.loader.ConfigLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real launch command, {@code ./kproxy} on the module path as a separate process, without
 * root: tests inside the build can pass while the real launch fails (a module missing from the
 * module path, a native-access flag), so this runs what an operator runs.
 */
class KproxyLaunchIT {

    record Result(int exit, String out, String err) {
    }

    static Result launch(String... args) throws Exception {
        Process p = AgentProcess.builder(AgentProcess.command(List.of(), List.of(args))).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("kproxy %s finished", String.join(" ", args)).isTrue();
        return new Result(p.exitValue(), out.join(), err.join());
    }

    static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    @Test
    void renderPrintsExactlyWhatTheCommandComputesAndNothingElseOnStandardOutput() throws Exception {
        Result r = launch("render", "--objects", RenderCommandTest.OBJECTS.toAbsolutePath().toString(), "--node", "node-a", "--mode",
                "nftables");
        RenderCommandTest.Run inProcess = RenderCommandTest.run("render", "--objects", RenderCommandTest.OBJECTS.toString(), "--node",
                "node-a", "--mode", "nftables");
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        assertThat(r.out()).isEqualTo(inProcess.out());
        assertThat(r.err()).contains("skipped 30-bad.yaml#1: unsupported kind ConfigMap");
    }

    @Test
    void aBadFlagIsRefusedBeforeAnythingIsTouched(@TempDir Path dir) throws Exception {
        Path journal = dir.resolve("journal");
        Result r = launch("run", "--hostname-override", "n1", "--journal-dir", journal.toString(), "--iptables-masquerade-bit", "40",
                "--proxy-mode", "nftables");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--iptables-masquerade-bit (iptables.masqueradeBit");
        assertThat(journal).doesNotExist();
    }

    @Test
    void writeConfigToWritesTheEffectiveConfiguration(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("effective.yaml");
        Result r = launch("run", "--proxy-mode", "nftables", "--cluster-cidr", "10.0.0.0/16", "--write-config-to", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readString(out)).contains("kind: KubeProxyConfiguration", "mode: nftables", "clusterCIDR: 10.0.0.0/16");
        assertThat(r.err()).contains("decision=wrote-config", "apiVersion=kubeproxy.config.k8s.io/v1alpha1");
    }

    @Test
    void aV1alpha2ConfigIsWrittenBackAsV1alpha1AndReadsAsTheSameConfig(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("v1alpha2.yaml");
        Files.writeString(in, """
                apiVersion: kubeproxy.config.k8s.io/v1alpha2
                kind: KubeProxyConfiguration
                mode: nftables
                syncPeriod: 20s
                minSyncPeriod: 2s
                detectLocal: {clusterCIDRs: [10.244.0.0/16, "fd00:1::/64"]}
                linux: {masqueradeAll: true, oomScoreAdj: -500, conntrack: {tcpEstablishedTimeout: 2h}}
                healthzBindAddresses: ["0.0.0.0/0"]
                healthzBindPort: 20256
                """);
        Path out = dir.resolve("effective.yaml");
        Result r = launch("run", "--config", in.toString(), "--write-config-to", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        String written = Files.readString(out);
        assertThat(written).contains("apiVersion: kubeproxy.config.k8s.io/v1alpha1", "clusterCIDR: \"10.244.0.0/16,fd00:1::/64\"",
                "healthzBindAddress: 0.0.0.0:20256");
        assertThat(r.err()).contains("apiVersion=kubeproxy.config.k8s.io/v1alpha1");
        assertThat(ConfigLoader.load(out)).isEqualTo(ConfigLoader.load(in));
    }

    @Test
    void runHelpSaysWhichVersionsAreReadAndWritten() throws Exception {
        Result r = launch("run", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("v1alpha1", "v1alpha2", "--conntrack-tcp-timeout-established");
    }

    @Test
    void helpListsTheCommands() throws Exception {
        Result r = launch("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("run", "render");
    }
}
