package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A ruleset rebuilt from the journal, annotated by {@code --explain}, is one the kernel accepts:
 * the nftables one is loaded for real, the iptables one checked by {@code iptables-restore --test},
 * each inside a private network namespace this test creates and deletes (root needed; skipped
 * otherwise unless KPROXY_REQUIRE_KERNEL=1).
 */
class RebuiltRulesetsLoadIT {

    private static final Instant BAD = Instant.parse("2026-11-22T03:12:07Z");

    @Test
    void theExplainedNftablesRulesetLoads() {
        KernelTests.require("ip", "nft");
        String text;
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            text = h.explain(h.render(h.at(BAD), Optional.empty()));
        }
        try (NetNs ns = NetNs.create("histnft")) {
            NetNs.Result r = ns.tryExecWithInput(text, "nft", "-f", "/dev/stdin");
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            // checkout's endpoints are in its slot of the shared map its dispatch rule names
            String chain = ns.exec("nft", "list", "chain", "ip", "kube-proxy", "service-2EUJKCR2-shop/checkout/tcp/http");
            Matcher map = Pattern.compile("map @(endpoints-tcp-\\d+)").matcher(chain);
            assertThat(map.find()).as(chain).isTrue();
            assertThat(ns.exec("nft", "list", "map", "ip", "kube-proxy", map.group(1))).contains("10.0.1.11 . 8081");
        }
    }

    @Test
    void theExplainedIptablesRulesetPassesIptablesRestoreTest() {
        KernelTests.require("ip", "iptables-restore", "ip6tables-restore");
        String text;
        try (History h = History.open(Samples.CLUSTER_HOUR)) {
            text = h.explain(h.render(h.at(BAD), Optional.of("iptables")));
        }
        int v6 = text.indexOf("\n# IPv6\n");
        assertThat(v6).isPositive();
        try (NetNs ns = NetNs.create("histipt")) {
            NetNs.Result r4 = ns.tryExecWithInput(text.substring(0, v6 + 1), "iptables-restore", "--test");
            assertThat(r4.exitCode()).as(r4.stderr()).isZero();
            NetNs.Result r6 = ns.tryExecWithInput(text.substring(v6 + 1), "ip6tables-restore", "--test");
            assertThat(r6.exitCode()).as(r6.stderr()).isZero();
        }
    }
}
