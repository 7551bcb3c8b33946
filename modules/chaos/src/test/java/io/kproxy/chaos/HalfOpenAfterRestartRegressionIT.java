package io.kproxy.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.KernelTests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The half-open watch's second regression (chaos/README.md, "Regression seeds"): a
 * {@code HALF_OPEN} right after a {@code KILL9}, as the 60-minute soak of seed 20261126 met it:
 * the stall also catches the idle pooled connections of the restarted agent's lists, which the
 * relist reused and waited on for about 85 s, until the source replaced its client's
 * connections. A minute of faults, plus start-up.
 */
class HalfOpenAfterRestartRegressionIT {

    @Test
    void aHalfOpenRightAfterARestartIsNoticedThoughItCatchesIdleConnectionsToo() throws Exception {
        KernelTests.require("ip", "nft");
        ChaosReport report = new ChaosRunner(20261126, 1.0, List.of(FaultKind.KILL9, FaultKind.HALF_OPEN), "nftables", true)
                .run(Path.of("target", "chaos", "half-open-after-kill9"));
        System.out.print(report.text());
        assertThat(report.faultCount()).as("faults injected").isGreaterThanOrEqualTo(2);
        assertThat(report.violations()).as(report.text()).isEmpty();
    }
}
