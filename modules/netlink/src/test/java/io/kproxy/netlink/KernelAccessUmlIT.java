package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlOptions;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * IPVS, ipset and rtnetlink clients against a real kernel that has them: User-Mode Linux
 * (docs/uml.md), running {@link KernelAccessScenario} inside, which checks the tools' view and
 * real TCP and UDP traffic through the virtual services.
 */
class KernelAccessUmlIT {

    @Test
    void programsIpvsIpsetAndDummyInsideUml() {
        UmlGate.require("ipvsadm", "ipset", "ip");
        UmlResult r = Uml.run(UmlOptions.ipvs(Duration.ofMinutes(4)), Uml.java(KernelAccessScenario.class.getName()));
        System.out.println(r.output());
        String out = r.requireSuccess();
        assertThat(out).contains("SCENARIO PASS").contains("traffic ok: cli tcp 10.96.0.10").contains("traffic ok: node udp 10.96.0.10")
                .contains("traffic ok: cli udp fd00:96::10");
        assertThat(r.console()).doesNotContain("modprobe-failed");
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms scenario=" + r.commandTime().toMillis() + "ms");
    }
}
