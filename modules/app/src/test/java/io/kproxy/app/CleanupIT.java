package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code kproxy run --cleanup} (upstream's {@code --cleanup}), through the real launcher inside
 * a test namespace: every installed backend's tables go, anything else stays, and the command
 * exits without starting the agent.
 */
class CleanupIT {

    @Test
    void removesWhatTheBackendsOwnAndNothingElse() throws Exception {
        KernelTests.require("ip", "nft");
        try (NetNs ns = NetNs.create("cleanup")) {
            RenderCommandTest.Run rendered = RenderCommandTest.run("render", "--objects", RenderCommandTest.OBJECTS.toString(), "--node",
                    "node-a", "--mode", "nftables");
            ns.execWithInput(rendered.out(), "nft", "-f", "-");
            ns.execWithInput("add table inet someone-else\nadd chain inet someone-else input { type filter hook input priority 0 ; }\n",
                    "nft", "-f", "-");
            assertThat(ns.exec("nft", "list", "tables")).contains("table ip kube-proxy", "table ip6 kube-proxy");

            Process p = AgentProcess.builder(AgentProcess.command(ns.prefix(), List.of("run", "--cleanup", "--hostname-override", "n1")))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            assertThat(out).contains("decision=cleaned-up mode=nftables").doesNotContain("agent-started");
            // Every installed mode's cleanup runs, ipvs included (issue 21); a node without its objects is left alone.
            assertThat(out).contains("decision=cleanup-skipped mode=ipvs").contains("decision=cleaned-up mode=ipvs");
            assertThat(ns.exec("nft", "list", "tables")).doesNotContain("kube-proxy").contains("table inet someone-else");
        }
    }
}
