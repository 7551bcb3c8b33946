package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code kproxy render}, in process: objects from files through the fold into the nftables ruleset. */
class RenderCommandTest {

    static final Path OBJECTS = Path.of("src/test/resources/objects");

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void rendersEveryGoodObjectAndReportsEachBadOneWithItsFileAndReason() {
        Run r = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "nftables");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).startsWith("add table ip kube-proxy").contains("demo/web/tcp/http", "comment \"kube-system/dns:dns\" : goto reject-chain")
                .contains("10.0.1.11 . 8080", "10.0.2.11 . 8080")
                .doesNotContain("badport/tcp/a").doesNotContain("Not_A_DNS_Label");
        // The Node object of this node was folded: its primary IP accepts NodePorts (nftables' "primary" default).
        assertThat(r.out()).contains("add element ip kube-proxy nodeport-ips { 192.168.0.2 }");
        assertThat(r.err().lines().toList()).containsExactly(
                "kproxy render: skipped 30-bad.yaml#1: unsupported kind ConfigMap (Service, EndpointSlice, Node, ServiceCIDR or List)",
                "kproxy render: skipped 30-bad.yaml#2: Service demo/Not_A_DNS_Label: invalid metadata.name \"Not_A_DNS_Label\": must consist "
                        + "of lower case alphanumeric characters or '-', and start and end with an alphanumeric character",
                "kproxy render: skipped 30-bad.yaml#3: Service demo/badport spec.ports[0].port: invalid value \"70000\": must be between 1 "
                        + "and 65535; port skipped");
    }

    @Test
    void aCleanDirectoryRendersWithExitZeroAndTheOutputIsTheRulesetOnly(@TempDir Path dir) throws Exception {
        Files.copy(OBJECTS.resolve("10-web.yaml"), dir.resolve("web.yaml"));
        Run r = run("render", "--objects", dir.toString(), "--node", "node-b", "--mode", "nftables");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out().lines()).allMatch(l -> l.startsWith("add ") || l.startsWith("# ") || l.isEmpty());
    }

    @Test
    void theConfigurationFileChangesTheRules(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nclusterCIDR: 10.0.0.0/16\n"
                + "nftables:\n  masqueradeAll: true\n");
        Run plain = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "nftables");
        Run configured = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "nftables", "--config",
                config.toString());
        // masqueradeAll: ClusterIP traffic is always marked; without it (and without a detector) never.
        assertThat(configured.out()).contains("service-AXK6CI2C-demo/web/tcp/http ip daddr 172.30.0.10 jump mark-for-masquerade");
        assertThat(plain.out()).doesNotContain("ip daddr 172.30.0.10 jump mark-for-masquerade");
    }

    @Test
    void everyInstalledBackendRenders() {
        Run r = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "iptables");
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        assertThat(r.out()).contains("*nat").contains("KUBE-SERVICES").contains("-A KUBE-SERVICES").contains("172.30.0.10");
        // ipvs renders too (its kernel access is not built: run refuses the mode, render does not need it).
        Run ipvs = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "ipvs");
        assertThat(ipvs.exit()).as(ipvs.err()).isEqualTo(3);
        assertThat(ipvs.out()).contains("# demo/web:http tcp\n-A -t 172.30.0.10:80 -s rr\n").contains("add KUBE-CLUSTER-IP 172.30.0.10,tcp:80")
                .contains("ip address add 172.30.0.10/32 dev kube-ipvs0").contains("-A KUBE-SERVICES -s 127.0.0.0/8 -j RETURN");
    }

    /** Issue 19, item 8: one family per output, with the jumps the agent ensures outside its restore text. */
    @Test
    void familySelectsOneLoadableFamily() {
        Run v4 = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "iptables", "--family", "ipv4");
        assertThat(v4.exit()).as(v4.err()).isEqualTo(3);
        assertThat(v4.out()).startsWith("# kproxy iptables ruleset, IPv4: iptables-restore input").doesNotContain("# IPv6", "fd00:")
                .contains("-A PREROUTING -m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES\n", "172.30.0.10");
        Run v6 = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "iptables", "--family", "ipv6");
        assertThat(v6.out()).startsWith("# kproxy iptables ruleset, IPv6: ip6tables-restore input").doesNotContain("172.30.0.10", "127.0.0.0/8");
        Run nft = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "nftables", "--family", "ipv6");
        assertThat(nft.out()).startsWith("add table ip6 kube-proxy").doesNotContain("table ip kube-proxy");
        // Without --family: both families, as before.
        assertThat(run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "iptables").out()).startsWith("# IPv4\n")
                .contains("# IPv6\n");
        assertThat(run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "iptables", "--family", "inet").exit())
                .isEqualTo(2);
    }

    @Test
    void aModeWithoutAnInstalledBackendIsRefused() {
        Run r = run("render", "--objects", OBJECTS.toString(), "--node", "node-a", "--mode", "kernelspace");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no backend for mode kernelspace (installed: ").contains("nftables").contains("iptables").contains("ipvs");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void missingRequiredOptionsAreAUsageError() {
        Run r = run("render", "--objects", OBJECTS.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required options").contains("--node").contains("--mode");
    }
}
