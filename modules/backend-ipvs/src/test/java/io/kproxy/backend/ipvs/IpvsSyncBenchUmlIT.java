package io.kproxy.backend.ipvs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.uml.Uml;
import io.kproxy.testkit.uml.UmlGate;
import io.kproxy.testkit.uml.UmlResult;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The ipvs backend's sync benchmark inside User-Mode Linux ({@link IpvsSyncBenchScenario});
 * opt-in, as it takes minutes: {@code -Dkproxy.bench.ipvs.backend=10000} (Services; 5 endpoints
 * each). docs/benchmarks.md, "ipvs backend sync (UML)", has the command and the results.
 */
class IpvsSyncBenchUmlIT {

    @Test
    void fullSyncAndOneEndpointChangesBesideTheTools() {
        String n = System.getProperty("kproxy.bench.ipvs.backend", "");
        Assumptions.assumeFalse(n.isEmpty(), "benchmark: run with -Dkproxy.bench.ipvs.backend=<services>");
        UmlGate.require("ipvsadm", "ipset", "ip", "iptables-legacy-restore");
        UmlResult r = Uml.run(IpvsUmlOptions.of(Duration.ofMinutes(40)).withMemory(2048), Uml.java(IpvsSyncBenchScenario.class.getName(), n, "5"));
        System.out.println(r.output());
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms bench=" + r.commandTime().toMillis() + "ms");
        assertThat(r.requireSuccess()).contains("SCENARIO PASS");
    }
}
