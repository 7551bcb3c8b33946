package io.kproxy.testkit.uml;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runner against the real UML kernel: a Java main class inside, its output, exit code, environment and modules; a timeout kills it. */
class UmlIT {

    @Test
    void runsJavaInsideWithModulesLoaded() {
        UmlGate.require();
        UmlResult r = Uml.run(UmlOptions.ipvs(Duration.ofSeconds(120)).withEnv(Map.of("KPROXY_UML_PROBE", "seen")),
                Uml.java(UmlMain.class.getName(), "7"));
        assertThat(r.timedOut()).isFalse();
        assertThat(r.exitCode()).as(r.console()).isEqualTo(7);
        assertThat(r.output()).contains("java.version=25").contains("kernel=" + Uml.moduleVersion().orElseThrow())
                .contains("ip_vs=true").contains("env=seen");
        assertThat(r.console()).doesNotContain("modprobe-failed");
        assertThat(r.bootTime()).isPositive();
        assertThat(r.commandTime()).isPositive();
        System.out.println("uml boot=" + r.bootTime().toMillis() + "ms java-main=" + r.commandTime().toMillis() + "ms");
    }

    @Test
    void killsTheGuestAtTheDeadline() {
        UmlGate.require();
        long t0 = System.nanoTime();
        UmlResult r = Uml.run(new UmlOptions(256, Duration.ofSeconds(8), List.of(), Map.of()), List.of("sleep", "600"));
        assertThat(r.timedOut()).isTrue();
        assertThat(r.exitCode()).isEqualTo(-1);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
    }
}
