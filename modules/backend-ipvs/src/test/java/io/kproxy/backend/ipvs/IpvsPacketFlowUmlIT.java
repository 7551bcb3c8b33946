package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Real packets through what the ipvs backend programs into a real kernel: one User-Mode Linux
 * boot (docs/uml.md) running {@link IpvsPacketFlowScenario}, the table of the packet-flow ITs in
 * both families, graceful termination, a restart under traffic and the cleanup. Part of
 * {@code ./mvnw verify}; without UML it is skipped, or fails under {@code KPROXY_REQUIRE_KERNEL=1}
 * (CI).
 */
class IpvsPacketFlowUmlIT {

    @Test
    void theJavaBackendProgramsIpvsAndRealConnectionsFollowTheTable() {
        UmlGate.require("ip", "ipvsadm", "ipset", "iptables-legacy-restore", "ip6tables-legacy-restore", "conntrack");
        UmlResult r = Uml.run(IpvsUmlOptions.of(Duration.ofMinutes(6)), Uml.java(IpvsPacketFlowScenario.class.getName()));
        System.out.println(r.output());
        String out = r.requireSuccess();
        assertThat(out).contains("SCENARIO PASS").doesNotContain("FLOW FAIL")
                .contains("FLOW ok   IPV4 pod to cluster IP").contains("FLOW ok   IPV6 source range: other client dropped")
                .contains("FLOW ok   IPv4 graceful termination").contains("FLOW ok   IPv4 restart under traffic").contains("FLOW ok   cleanup");
        assertThat(r.console()).doesNotContain("modprobe-failed");
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms scenario=" + r.commandTime().toMillis() + "ms");
    }
}
