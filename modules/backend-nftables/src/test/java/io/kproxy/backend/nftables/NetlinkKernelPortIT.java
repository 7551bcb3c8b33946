package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.KernelException;
import io.kproxy.netlink.NfTablesClient;
import io.kproxy.netlink.NfTablesException;
import io.kproxy.netlink.NftExecutor;
import io.kproxy.netlink.NftExecutors;
import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The netlink port: a refusal names the failing line; what the compiler does not express goes through libnftables. */
class NetlinkKernelPortIT {

    @Test
    void refusalsNameTheLineAndUnknownSyntaxFallsBack() throws NfTablesException, KernelException {
        KernelTests.require("nft", "ip");
        try (NetNs ns = NetNs.create("nlport"); NfTablesClient client = NfTablesClient.open(Optional.of(ns.name()));
                NftExecutor nft = NftExecutors.open(Optional.of(ns.name()))) {
            NetlinkKernelPort port = new NetlinkKernelPort(client, new NftKernelPort(nft));
            String bad = "add table ip kube-proxy\nadd chain ip kube-proxy a\nadd rule ip kube-proxy missing jump a\n";
            assertThatThrownBy(() -> port.apply(bad)).isInstanceOfSatisfying(KernelException.class, e -> {
                assertThat(e.retryable()).isFalse();
                assertThat(e.failingLineNumber()).contains(3);
                assertThat(e.failingLine()).contains("add rule ip kube-proxy missing jump a");
                assertThat(e.toolMessage()).contains("NEWRULE ip kube-proxy missing").contains("ENOENT");
            });
            assertThat(ns.exec("nft", "list", "tables")).doesNotContain("kube-proxy");

            // A counter is not ours to compile: the whole transaction goes through libnftables,
            // and the set it declares is remembered.
            port.apply("add table ip kube-proxy\nadd chain ip kube-proxy a\nadd rule ip kube-proxy a counter\n"
                    + "add set ip kube-proxy s { type ipv4_addr ; comment \"x\" ; }\n");
            assertThat(port.commits()).containsExactly(0L, 1L);
            port.apply("add element ip kube-proxy s { 10.1.2.3 }\n");
            assertThat(port.commits()).containsExactly(1L, 1L);
            assertThat(ns.exec("nft", "list", "set", "ip", "kube-proxy", "s")).contains("10.1.2.3").contains("comment \"x\"");

            // A dry run changes nothing, whichever path it takes.
            port.check("delete element ip kube-proxy s { 10.1.2.3 }\n");
            port.check("add rule ip kube-proxy a counter\n");
            assertThat(ns.exec("nft", "list", "set", "ip", "kube-proxy", "s")).contains("10.1.2.3");
            assertThat(ns.exec("nft", "list", "chain", "ip", "kube-proxy", "a").lines().filter(l -> l.contains("counter")).count()).isEqualTo(1);
            port.apply(NftBackend.cleanupText());
        }
    }
}
