package io.kproxy.app;

import static io.kproxy.app.RenderCommandTest.OBJECTS;
import static io.kproxy.app.RenderCommandTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.app.RenderCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kproxy render --objects} with {@code networking.k8s.io/v1} ServiceCIDR objects: accepted
 * (exit 0), and their ranges replace the configured {@code kproxy.serviceCIDRs}, so that the same
 * ranges render the same ruleset whichever way they come.
 */
class RenderServiceCidrTest {

    private static final String SERVICE_CIDR = """
            # As `kubectl get servicecidr kubernetes -o yaml` prints it (dual-stack API server).
            apiVersion: networking.k8s.io/v1
            kind: ServiceCIDR
            metadata:
              name: kubernetes
              resourceVersion: "12"
              labels: {networking.k8s.io/service-cidr-owner: kube-apiserver}
              managedFields:
              - {manager: kube-apiserver, operation: Update}
            spec:
              cidrs: [172.30.0.0/16, "fd00:172:30::/112"]
            status:
              conditions:
              - {type: Ready, status: "True", reason: "", message: Kubernetes Service CIDR is ready, lastTransitionTime: "2026-03-01T11:58:00Z"}
            """;

    private static Path objects(Path dir, String serviceCidrs) throws Exception {
        Files.createDirectories(dir);
        Files.copy(OBJECTS.resolve("10-web.yaml"), dir.resolve("10-web.yaml"));
        if (!serviceCidrs.isEmpty()) {
            Files.writeString(dir.resolve("40-servicecidr.yaml"), serviceCidrs);
        }
        return dir;
    }

    private static Path config(Path dir, String... ranges) throws Exception {
        Path config = dir.resolve("config.yaml");
        String list = String.join(", ", Stream.of(ranges).map(r -> "\"" + r + "\"").toList());
        Files.writeString(config, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nkproxy:\n  serviceCIDRs: ["
                + list + "]\n");
        return config;
    }

    @Test
    void aServiceCidrFileRendersWithExitZeroAndDropsUnallocatedAddresses(@TempDir Path dir) throws Exception {
        Run r = run("render", "--objects", objects(dir.resolve("o"), SERVICE_CIDR).toString(), "--node", "node-a", "--mode", "nftables");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("add rule ip kube-proxy cluster-ips-check ip daddr { 172.30.0.0/16 } drop comment \"Drop traffic to unallocated ClusterIPs\"")
                .contains("add rule ip6 kube-proxy cluster-ips-check ip6 daddr { fd00:172:30::/112 } drop comment \"Drop traffic to unallocated ClusterIPs\"");
    }

    @Test
    void serviceCidrObjectsRenderExactlyAsTheSameConfiguredRanges(@TempDir Path dir) throws Exception {
        Run fromObjects = run("render", "--objects", objects(dir.resolve("o1"), SERVICE_CIDR).toString(), "--node", "node-a", "--mode",
                "nftables");
        Run fromConfig = run("render", "--objects", objects(dir.resolve("o2"), "").toString(), "--node", "node-a", "--mode", "nftables",
                "--config", config(dir, "172.30.0.0/16", "fd00:172:30::/112").toString());
        assertThat(fromObjects.exit()).isZero();
        assertThat(fromConfig.exit()).as(fromConfig.err()).isZero();
        assertThat(fromObjects.out()).contains("ip daddr { 172.30.0.0/16 } drop").isEqualTo(fromConfig.out());
    }

    @Test
    void serviceCidrObjectsReplaceDifferentConfiguredRanges(@TempDir Path dir) throws Exception {
        Run r = run("render", "--objects", objects(dir.resolve("o"), SERVICE_CIDR).toString(), "--node", "node-a", "--mode", "nftables",
                "--config", config(dir, "10.96.0.0/12").toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("ip daddr { 172.30.0.0/16 } drop").doesNotContain("10.96.0.0/12");
    }

    @Test
    void aBadServiceCidrIsSkippedWithItsFileAndReason(@TempDir Path dir) throws Exception {
        String bad = """
                apiVersion: networking.k8s.io/v1
                kind: ServiceCIDR
                metadata: {name: Not_A_Name}
                spec: {cidrs: [10.96.0.0/16]}
                ---
                apiVersion: networking.k8s.io/v1
                kind: ServiceCIDR
                metadata: {name: odd}
                spec: {cidrs: [10.97.0.0/16, not-a-cidr]}
                """;
        Run r = run("render", "--objects", objects(dir.resolve("o"), bad).toString(), "--node", "node-a", "--mode", "nftables");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).contains("ip daddr { 10.97.0.0/16 } drop").doesNotContain("10.96.0.0/16");
        assertThat(r.err().lines().toList()).hasSize(2).satisfiesExactly(
                l -> assertThat(l).startsWith("kproxy render: skipped 40-servicecidr.yaml#1: ServiceCIDR /Not_A_Name: "),
                l -> assertThat(l).startsWith("kproxy render: skipped 40-servicecidr.yaml#2: ServiceCIDR odd spec.cidrs[1]: invalid value"));
    }
}
