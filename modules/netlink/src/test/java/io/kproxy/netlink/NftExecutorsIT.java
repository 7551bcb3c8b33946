package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import io.kproxy.testkit.NetNs;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every way to nft (in process, the command, the deferred one) reaches the namespace it was given, and only that one. */
class NftExecutorsIT {

    static final String SCRIPT = "add table ip kp-test\nadd chain ip kp-test c\n";

    @Test
    void inProcessAndCommandExecutorsProgramTheGivenNamespace() {
        KernelTests.require("nft", "ip");
        try (NetNs a = NetNs.create("nlexec"); NetNs b = NetNs.create("nlother")) {
            try (NftExecutor lib = LibNftExecutor.open(Optional.of(a.name())).orElseThrow()) {
                assertThat(lib.kind()).isEqualTo("libnftables");
                assertThat(lib.run(SCRIPT, true).ok()).isTrue();
                assertThat(a.exec("nft", "list", "tables")).doesNotContain("kp-test");
                assertThat(lib.run(SCRIPT, false).ok()).isTrue();
                assertThat(a.exec("nft", "list", "tables")).contains("table ip kp-test");
                NftResult bad = lib.run("add table ip kp-test\nadd rule ip kp-test missing accept\n", false);
                assertThat(bad.ok()).isFalse();
                assertThat(bad.error()).contains(":2:").contains("Error");
            }
            try (NftExecutor cmd = new CommandNftExecutor(Optional.of(b.name()), Duration.ofSeconds(30))) {
                assertThat(cmd.run(SCRIPT, false).ok()).isTrue();
                assertThat(cmd.list("list tables").output()).contains("table ip kp-test");
            }
            assertThat(a.exec("nft", "list", "tables")).doesNotContain("ip6");
            try (NftExecutor deferred = NftExecutors.deferred(Optional.of(b.name()))) {
                assertThat(deferred.kind()).isEqualTo(NftExecutors.DEFERRED);
                assertThat(deferred.list("list tables").output()).contains("table ip kp-test");
                assertThat(deferred.kind()).isEqualTo("libnftables");
                assertThat(deferred.run("delete table ip kp-test\n", false).ok()).isTrue();
                assertThat(b.exec("nft", "list", "tables")).doesNotContain("kp-test");
            }
            assertThat(new ConntrackTool(Optional.of(a.name())).run(List.of("-L")).exitCode()).isIn(0, 1);
        }
    }
}
