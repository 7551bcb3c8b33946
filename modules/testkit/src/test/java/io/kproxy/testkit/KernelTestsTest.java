package io.kproxy.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.testkit.KernelTests.Probe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The kernel-test gate, with the environment, uid and tool lookup injected. */
class KernelTestsTest {

    private static Probe probe(String requireEnv, boolean root, Set<String> tools) {
        Map<String, String> env = requireEnv == null ? Map.of() : Map.of(KernelTests.REQUIRE_ENV, requireEnv);
        return new Probe(env::get, () -> root, t -> tools.contains(t) ? "/usr/sbin/" + t : null);
    }

    @Test
    void requiredOnlyForOneOrTrue() {
        assertThat(KernelTests.required(probe("1", true, Set.of()))).isTrue();
        assertThat(KernelTests.required(probe("true", true, Set.of()))).isTrue();
        assertThat(KernelTests.required(probe("TRUE", true, Set.of()))).isTrue();
        assertThat(KernelTests.required(probe("0", true, Set.of()))).isFalse();
        assertThat(KernelTests.required(probe("yes", true, Set.of()))).isFalse();
        assertThat(KernelTests.required(probe("", true, Set.of()))).isFalse();
        assertThat(KernelTests.required(probe(null, true, Set.of()))).isFalse();
    }

    @Test
    void everythingPresentPassesWhetherRequiredOrNot() {
        for (String env : new String[] {null, "1"}) {
            assertThatCode(() -> KernelTests.require(probe(env, true, Set.of("ip", "nft")), "ip", "nft")).doesNotThrowAnyException();
        }
    }

    @Test
    void missingCapabilitySkipsWhenNotRequired() {
        assertThatThrownBy(() -> KernelTests.require(probe(null, false, Set.of("ip")), "ip", "nft", "conntrack"))
                .isInstanceOf(TestAbortedException.class)
                .hasMessage("kernel test needs root (uid 0), the 'nft' tool, the 'conntrack' tool to run inside a private network namespace;"
                        + " skipped (set KPROXY_REQUIRE_KERNEL=1 to make this a failure)");
    }

    @Test
    void missingCapabilityFailsWhenRequired() {
        assertThatThrownBy(() -> KernelTests.require(probe("1", true, Set.of()), "iptables"))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("kernel test needs the 'iptables' tool to run inside a private network namespace"
                        + " (KPROXY_REQUIRE_KERNEL=1: a missing capability is a failure)");
        assertThatThrownBy(() -> KernelTests.require(probe("true", false, Set.of("ip")), "ip"))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("root (uid 0)");
    }

    @Test
    void theRealProbesAgreeWithTheSystem() throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u").start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(id.waitFor()).isZero();
        assertThat(KernelTests.isRoot()).isEqualTo(uid.equals("0"));
        assertThat(KernelTests.which("sh")).isNotNull().endsWith("/sh");
        assertThat(KernelTests.which("kproxy-no-such-tool")).isNull();
        assertThat(KernelTests.required()).isEqualTo(KernelTests.required(Probe.SYSTEM));
    }
}
