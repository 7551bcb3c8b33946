package io.kproxy.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chaos run inside {@code ./mvnw verify}: a short soak with a fixed seed (about 1.5 minutes
 * plus start-up), and the way to run a long one (chaos/README.md):
 * {@code -Dchaos.seed=S -Dchaos.minutes=N [-Dchaos.faults=KIND,...] [-Dchaos.mode=iptables]}. Root and the {@code ip} and {@code nft} tools are
 * required (the testkit's kernel gate); everything runs inside namespaces the run creates.
 */
class ChaosSoakIT {

    @Test
    void theAgentKeepsItsPromisesUnderASeededScheduleOfFaults() throws Exception {
        KernelTests.require("ip", "nft");
        long seed = Long.getLong("chaos.seed", 1L);
        double minutes = Double.parseDouble(System.getProperty("chaos.minutes", "1.5"));
        String mode = System.getProperty("chaos.mode", "nftables");
        ChaosReport report = new ChaosRunner(seed, minutes, kinds(System.getProperty("chaos.faults", ""), mode), mode)
                .run(Path.of("target", "chaos", "seed-" + seed));
        System.out.print(report.text());
        assertThat(report.faultCount()).as("faults injected").isPositive();
        assertThat(report.violations()).as(report.text()).isEmpty();
    }

    /** The kinds named (comma-separated), or every kind ({@code KERNEL_REFUSAL} only in nftables mode). */
    static List<FaultKind> kinds(String names, String mode) {
        if (names.isBlank()) {
            return Arrays.stream(FaultKind.values()).filter(k -> mode.equals("nftables") || k != FaultKind.KERNEL_REFUSAL).toList();
        }
        return Arrays.stream(names.split(",")).map(String::strip).map(FaultKind::valueOf).toList();
    }
}
