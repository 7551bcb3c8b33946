package io.kproxy.bench.iptables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class IptablesScaleBenchTest {

    @Test
    void aLimitIsMinutesOrSecondsAndZeroMeansNone() {
        assertThat(IptablesScaleBench.limit("20m")).isEqualTo(Duration.ofMinutes(20));
        assertThat(IptablesScaleBench.limit("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(IptablesScaleBench.limit("0")).isGreaterThan(Duration.ofHours(12));
        assertThatThrownBy(() -> IptablesScaleBench.limit("20h")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IptablesScaleBench.limit("0m")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theFloorGetsOneSectionPerTable() {
        String twoBlocks = "*nat\n:KUBE-SVC-A - [0:0]\n-A KUBE-SVC-A -j KUBE-SEP-A\nCOMMIT\n*nat\n:KUBE-SVC-B - [0:0]\n-A KUBE-SVC-B -j KUBE-SEP-B\nCOMMIT\n";
        assertThat(IptablesScaleBench.oneSectionPerTable(twoBlocks))
                .isEqualTo("*nat\n:KUBE-SVC-A - [0:0]\n:KUBE-SVC-B - [0:0]\n-A KUBE-SVC-A -j KUBE-SEP-A\n-A KUBE-SVC-B -j KUBE-SEP-B\nCOMMIT\n");
    }
}
