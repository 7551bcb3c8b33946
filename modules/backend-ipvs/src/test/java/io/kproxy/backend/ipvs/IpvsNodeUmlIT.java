package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlOptions;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What the ipvs backend reads from a real kernel ({@link IpvsNodeScenario}, one User-Mode Linux
 * boot without {@code ip_vs_mh}): NodePorts on the node's local addresses, a forced full sync
 * repairing what someone else deleted, a scheduler the kernel lacks skipped. Part of
 * {@code ./mvnw verify}; skipped without UML, a failure under {@code KPROXY_REQUIRE_KERNEL=1}.
 */
class IpvsNodeUmlIT {

    @Test
    void theBackendFollowsTheNodesAddressesRepairsDriftAndSkipsAMissingScheduler() {
        UmlGate.require("ip", "ipvsadm", "ipset", "iptables-legacy-restore", "ip6tables-legacy-restore", "conntrack");
        UmlOptions all = IpvsUmlOptions.of(Duration.ofMinutes(5));
        UmlOptions withoutMh = new UmlOptions(all.memoryMegabytes(), all.timeout(),
                all.modules().stream().filter(m -> !m.equals("ip_vs_mh")).toList(), all.env());
        UmlResult r = Uml.run(withoutMh, Uml.java(IpvsNodeScenario.class.getName()));
        System.out.println(r.output());
        String out = r.requireSuccess();
        assertThat(out).contains("SCENARIO PASS").doesNotContain("FLOW FAIL")
                .contains("FLOW ok   IPV4 NodePort on the node's uplink address").contains("FLOW ok   IPV6 NodePort on the node's uplink address")
                .contains("FLOW ok   IPV4 NodePort on an address added since the last sync")
                .contains("FLOW ok   IPV4 a forced full sync repairs what someone else deleted")
                .contains("FLOW ok   a scheduler the kernel lacks skips every virtual server");
        assertThat(r.console()).doesNotContain("modprobe-failed");
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms scenario=" + r.commandTime().toMillis() + "ms");
    }
}
