package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kproxy run --proxy-mode ipvs} on a kernel without IPVS (this development machine's:
 * no {@code CONFIG_IP_VS}) refuses to start, as upstream's {@code CanUseIPVSProxier} makes
 * kube-proxy refuse (cmd/kube-proxy/app/server_linux.go): exit 1 and one line naming what is
 * missing and what to do (docs/backends/ipvs.md, "Start"). Runs the real launcher inside a test
 * namespace; on a kernel that has IPVS or can load it the premise does not hold and the test is
 * skipped (inside User-Mode Linux, backend-ipvs's tests cover that kernel).
 */
class IpvsWithoutKernelIT {

    @Test
    void runRefusesWithAMessageNamingTheMissingModuleAndExitsOne(@TempDir Path dir) throws Exception {
        KernelTests.require("ip");
        assumeFalse(kernelMayHaveIpvs(), "this kernel has IPVS or may load it");
        try (NetNs ns = NetNs.create("noipvs")) {
            Process p = AgentProcess.builder(AgentProcess.command(ns.prefix(), List.of("run", "--proxy-mode", "ipvs", "--hostname-override",
                    "n1", "--master", "http://127.0.0.1:1", "--journal-dir", dir.resolve("journal").toString(), "--admin-socket",
                    dir.resolve("admin.sock").toString(), "--healthz-bind-address", "127.0.0.1:10256", "--metrics-bind-address",
                    "127.0.0.1:10249"))).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isEqualTo(1);
            assertThat(out).contains("kproxy run: ipvs mode cannot run: the kernel has no IPVS")
                    .contains("ip_vs is neither loaded nor loadable").contains("--proxy-mode nftables").doesNotContain("agent-started");
            assertThat(ns.exec("ip", "link", "show")).doesNotContain("kube-ipvs0");
        }
    }

    /** IPVS loaded, built in or built as a module (then the generic netlink request would load it). */
    private static boolean kernelMayHaveIpvs() throws Exception {
        if (Files.exists(Path.of("/sys/module/ip_vs"))) {
            return true;
        }
        Path config = Path.of("/proc/config.gz");
        if (!Files.exists(config)) {
            return true; // cannot tell: do not claim the premise
        }
        try (GZIPInputStream in = new GZIPInputStream(Files.newInputStream(config))) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.contains("\nCONFIG_IP_VS=y") || text.contains("\nCONFIG_IP_VS=m");
        }
    }
}
