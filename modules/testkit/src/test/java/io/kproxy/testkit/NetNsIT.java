package io.kproxy.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Network namespaces against the real kernel: each test creates its own {@code kp-<purpose>-<random>}
 * namespace and deletes it, also on failure. Nothing touches the machine's own namespace.
 */
@Timeout(120)
class NetNsIT {

    @BeforeEach
    void gate() {
        KernelTests.require("ip");
    }

    private static String netnsList() {
        return NetNs.run(List.of("ip", "netns", "list"), null).stdout();
    }

    @Test
    void createsARandomlyNamedNamespaceWithLoopbackUpAndNoRoutes() {
        try (NetNs ns = NetNs.create("netns-IT"); NetNs other = NetNs.create("netns-IT")) {
            assertThat(ns.name()).as("purpose reduced to [a-z0-9], at most 8 characters").matches("kp-netns-[0-9a-f]{1,6}");
            assertThat(ns.name()).isNotEqualTo(other.name());
            assertThat(netnsList()).contains(ns.name());
            assertThat(ns.exec("ip", "-o", "link", "show", "lo")).contains("LOOPBACK").contains(",UP");
            assertThat(ns.exec("ip", "-o", "link", "show").lines().count()).as("only loopback inside").isEqualTo(1);
            assertThat(ns.exec("ip", "route", "show").strip()).as("no route out of the machine").isEmpty();
            assertThat(ns.exec("ip", "-6", "route", "show").strip()).isEmpty();
            assertThat(ns.prefix()).containsExactly("ip", "netns", "exec", ns.name());
        }
    }

    @Test
    void execPassesInputReturnsOutputAndReportsFailures() {
        try (NetNs ns = NetNs.create("exec")) {
            assertThat(ns.execWithInput("hello from stdin\n", "cat")).isEqualTo("hello from stdin\n");
            NetNs.Result r = ns.tryExecWithInput(null, "ip", "link", "show", "kp-missing0");
            assertThat(r.exitCode()).isNotZero();
            assertThat(r.stderr()).contains("kp-missing0");
            assertThatThrownBy(() -> ns.exec("ip", "link", "show", "kp-missing0"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("in netns " + ns.name() + ": 'ip link show kp-missing0' exited ")
                    .hasMessageContaining("kp-missing0");
            // a change made inside stays inside: the address exists on the namespace's loopback only
            ns.exec("ip", "addr", "add", "10.255.77.1/32", "dev", "lo");
            assertThat(ns.exec("ip", "-o", "addr", "show", "dev", "lo")).contains("10.255.77.1/32");
            assertThat(NetNs.run(List.of("ip", "-o", "addr", "show"), null).stdout()).doesNotContain("10.255.77.1/32");
        }
    }

    @Test
    void closeDeletesTheNamespaceOnceAndForbidsFurtherUse() {
        NetNs ns = NetNs.create("close");
        String name = ns.name();
        try {
            assertThat(netnsList()).contains(name);
        } finally {
            ns.close();
        }
        assertThat(netnsList()).doesNotContain(name);
        assertThatCode(ns::close).as("idempotent").doesNotThrowAnyException();
        assertThatThrownBy(() -> ns.exec("true")).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aCommandThatCannotStartIsReported() {
        try (NetNs ns = NetNs.create("nostart")) {
            NetNs.Result r = ns.tryExecWithInput(null, "kproxy-no-such-tool");
            assertThat(r.exitCode()).isNotZero();
        }
        assertThatThrownBy(() -> NetNs.run(List.of("/nonexistent/kproxy-tool"), null))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("cannot run '/nonexistent/kproxy-tool'");
    }
}
