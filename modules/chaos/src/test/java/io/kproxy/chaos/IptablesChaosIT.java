package io.kproxy.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chaos run in iptables mode inside {@code ./mvnw verify}: seed 1, every fault kind but
 * {@code KERNEL_REFUSAL} (it takes an nftables table), for half a minute plus start-up; the
 * kernel is compared by {@code iptables-save} (chaos/README.md, "iptables mode").
 */
class IptablesChaosIT {

    @Test
    void theAgentKeepsItsPromisesInIptablesMode() throws Exception {
        KernelTests.require("ip", "nft", "iptables-save", "iptables-restore");
        ChaosReport report = new ChaosRunner(1, 0.5, ChaosSoakIT.kinds("", "iptables"), "iptables")
                .run(Path.of("target", "chaos", "iptables-seed-1"));
        System.out.print(report.text());
        assertThat(report.faultCount()).as("faults injected").isPositive();
        assertThat(report.violations()).as(report.text()).isEmpty();
    }
}
