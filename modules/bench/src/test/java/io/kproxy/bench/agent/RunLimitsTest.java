package io.kproxy.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RunLimitsTest {

    @Test
    void limitsGrowWithTheSizeAndStayBounded() {
        RunLimits small = RunLimits.forSize(1_000, 200, 20);
        RunLimits ten = RunLimits.forSize(10_000, 200, 20);
        RunLimits thirty = RunLimits.forSize(30_000, 200, 20);
        RunLimits hundred = RunLimits.forSize(100_000, 200, 20);
        assertThat(small.agentHeapMb()).as("the floor, up to 10,000").isEqualTo(192);
        assertThat(ten.agentHeapMb()).isEqualTo(192);
        assertThat(RunLimits.forSize(29_000, 200, 20).agentHeapMb()).as("the serial collector's last size").isEqualTo(398);
        assertThat(thirty.agentHeapMb()).as("1.8 times the 224 MB live at the first sync").isEqualTo(409);
        assertThat(hundred.agentHeapMb()).as("1.4 times the 715 MB live at the first sync").isEqualTo(1_025);
        assertThat(RunLimits.forSize(10_000_000, 200, 20).agentHeapMb()).isEqualTo(3_072);
        assertThat(ten.simulatorHeapMb()).isEqualTo(1_024);
        assertThat(hundred.simulatorHeapMb()).isEqualTo(2_012);
        assertThat(ten.firstSync()).isEqualTo(Duration.ofMinutes(10));
        assertThat(hundred.firstSync()).isEqualTo(Duration.ofMinutes(60));
        assertThat(RunLimits.forSize(10_000_000, 200, 20).firstSync()).isEqualTo(Duration.ofHours(2));
        assertThat(hundred.simulatorReady()).isEqualTo(Duration.ofMinutes(7));
        assertThat(hundred.changes()).isEqualTo(Duration.ofSeconds(140));
    }

    @Test
    void configuredOptionsWinAndBadSizesAreRefused() {
        RunLimits limits = RunLimits.forSize(100_000, 200, 20);
        assertThat(limits.agentJavaOpts("-Xmx1g -XX:+UseSerialGC")).isEqualTo("-Xmx1g -XX:+UseSerialGC");
        String parallel = "-Xmx1025m -XX:-UseSerialGC -XX:+UseParallelGC -XX:MaxNewSize=128m -XX:NewRatio=7 -XX:-UseStringDeduplication";
        assertThat(limits.agentJavaOpts(null)).as("the parallel collector, a young generation of an eighth, no string deduplication")
                .isEqualTo(parallel);
        assertThat(limits.agentJavaOpts(" ")).isEqualTo(parallel);
        assertThat(RunLimits.forSize(30_000, 200, 20).agentJavaOpts(null))
                .isEqualTo("-Xmx409m -XX:-UseSerialGC -XX:+UseParallelGC -XX:MaxNewSize=51m -XX:NewRatio=7 -XX:-UseStringDeduplication");
        assertThat(RunLimits.forSize(29_000, 200, 20).agentJavaOpts(null)).as("the launcher's serial collector").isEqualTo("-Xmx398m");
        assertThatThrownBy(() -> RunLimits.forSize(0, 200, 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RunLimits.forSize(10, 200, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunLimits(320, 1024, Duration.ZERO, Duration.ofMinutes(1), Duration.ofMinutes(1),
                Duration.ofMinutes(1))).isInstanceOf(IllegalArgumentException.class);
    }
}
