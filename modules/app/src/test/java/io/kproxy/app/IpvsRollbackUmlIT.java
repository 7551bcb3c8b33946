package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlOptions;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Rollback in ipvs mode against a real kernel: {@link IpvsRollbackScenario} in one User-Mode
 * Linux boot (docs/uml.md). Part of {@code ./mvnw verify}; skipped without UML, a failure under
 * {@code KPROXY_REQUIRE_KERNEL=1} (CI).
 */
class IpvsRollbackUmlIT {

    @Test
    void pinningAnEarlierGenerationPutsItsVirtualServersBackInTheKernel() {
        UmlGate.require("ip", "ipvsadm", "ipset", "iptables-legacy-restore", "ip6tables-legacy-restore", "conntrack");
        UmlResult r = Uml.run(UmlOptions.ipvs(Duration.ofMinutes(4)), Uml.java(IpvsRollbackScenario.class.getName()));
        System.out.println(r.output());
        String out = r.requireSuccess();
        assertThat(out).contains("SCENARIO PASS").contains("FLOW ok   ipvs rollback").contains("FLOW ok   ipvs resume");
        assertThat(r.console()).doesNotContain("modprobe-failed");
    }
}
