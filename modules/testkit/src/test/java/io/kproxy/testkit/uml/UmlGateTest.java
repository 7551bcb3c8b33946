package io.kproxy.testkit.uml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kproxy.testkit.KernelTests;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The UML gate: a missing piece is named, and skips or (with KPROXY_REQUIRE_KERNEL=1) fails the test. */
class UmlGateTest {

    @Test
    void aMissingPieceIsNamedAndSkipsOrFails() {
        String missing = UmlGate.missing("kproxy-no-such-tool");
        assertThat(missing).isNotNull();
        if (KernelTests.which(Uml.KERNEL) != null && Uml.moduleVersion().isPresent()) {
            assertThat(missing).isEqualTo("the 'kproxy-no-such-tool' tool");
        }
        Throwable t = catchThrowable(() -> UmlGate.require("kproxy-no-such-tool"));
        assertThat(t).isInstanceOf(KernelTests.required() ? AssertionFailedError.class : TestAbortedException.class)
                .hasMessageContaining(missing).hasMessageContaining("apt-get install -y user-mode-linux");
    }
}
