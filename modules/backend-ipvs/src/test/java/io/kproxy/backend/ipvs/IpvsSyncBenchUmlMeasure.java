package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The ipvs backend's sync benchmark inside User-Mode Linux ({@link IpvsSyncBenchScenario}). A
 * measurement, not a test: its name matches neither {@code *Test} nor {@code *IT}, so
 * {@code verify} never runs it; it runs when named ({@code -Dtest=IpvsSyncBenchUmlMeasure}), with
 * {@code -Dkproxy.bench.ipvs.backend=N} Services of 5 endpoints each (default 10,000).
 * docs/benchmarks.md, "ipvs backend sync (UML)", has the command and the results.
 */
class IpvsSyncBenchUmlMeasure {

    @Test
    void fullSyncAndOneEndpointChangesBesideTheTools() {
        String n = System.getProperty("kproxy.bench.ipvs.backend", "10000");
        UmlGate.require("ipvsadm", "ipset", "ip", "iptables-legacy-restore");
        UmlResult r = Uml.run(IpvsUmlOptions.of(Duration.ofMinutes(40)).withMemory(2048), Uml.java(IpvsSyncBenchScenario.class.getName(), n, "5"));
        System.out.println(r.output());
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms bench=" + r.commandTime().toMillis() + "ms");
        assertThat(r.requireSuccess()).contains("SCENARIO PASS");
    }
}
