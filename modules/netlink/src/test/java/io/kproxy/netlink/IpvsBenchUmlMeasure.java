package io.kproxy.netlink;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlOptions;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The IPVS load benchmark inside User-Mode Linux ({@link IpvsBenchScenario}). A measurement, not a
 * test: its name matches neither {@code *Test} nor {@code *IT}, so {@code verify} never runs it; it
 * runs when named ({@code -Dtest=IpvsBenchUmlMeasure}), with {@code -Dkproxy.bench.ipvs=N}
 * services of 5 real servers each (default 10,000). docs/benchmarks.md, "IPVS kernel access
 * (UML)", has the command and the results.
 */
class IpvsBenchUmlMeasure {

    @Test
    void loadsServicesThroughTheClientAndThroughIpvsadm() {
        String n = System.getProperty("kproxy.bench.ipvs", "10000");
        UmlGate.require("ipvsadm", "ip");
        UmlResult r = Uml.run(UmlOptions.ipvs(Duration.ofMinutes(30)), Uml.java(IpvsBenchScenario.class.getName(), n, "5"));
        System.out.println(r.output());
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms bench=" + r.commandTime().toMillis() + "ms");
        assertThat(r.requireSuccess()).contains("SCENARIO PASS");
    }
}
