package io.kproxy.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The half-open watch's first regression (chaos/README.md, "Regression seeds"): seed 1 with
 * {@code HALF_OPEN} only, where the first fault leaves the agent's watches half-open while
 * Services change (before the source bounded its watches, docs/operations.md "Watch liveness",
 * the changes never reached the kernel and convergence failed at about 112 s). Half a minute of
 * faults, plus start-up. The second, after a restart, is {@link HalfOpenAfterRestartRegressionIT}
 * (its own class, so that failsafe runs it in a fork beside this one).
 */
class HalfOpenRegressionIT {

    @Test
    void aHalfOpenWatchIsNoticedAndTheKernelConverges() throws Exception {
        KernelTests.require("ip", "nft");
        ChaosReport report = new ChaosRunner(1, 0.5, List.of(FaultKind.HALF_OPEN), "nftables").run(Path.of("target", "chaos", "half-open-seed-1"));
        System.out.print(report.text());
        assertThat(report.faultCount()).as("faults injected").isPositive();
        assertThat(report.violations()).as(report.text()).isEmpty();
    }
}
