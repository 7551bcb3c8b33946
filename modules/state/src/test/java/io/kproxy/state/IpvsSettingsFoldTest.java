package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.model.Cidr;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The recorded {@code ipvs} section reaches the node's {@link DataplaneSettings} (so that the ipvs
 * backend renders with it, and a replay with the section the node had), leniently: a bad value is
 * reported and defaulted, never stops the fold.
 */
class IpvsSettingsFoldTest {

    private static FoldStep record(Json.Obj config) {
        return Logs.step(FoldedState.initial(), new ConfigRecorded(new NodeName(Logs.NODE), config));
    }

    @Test
    void theRecordedSectionReachesTheNodesSettings() {
        FoldStep step = record(Json.obj("mode", Json.of("ipvs"), "ipvs", Json.obj("scheduler", Json.of("wrr"), "excludeCIDRs",
                Json.arr(Json.of("10.96.0.0/12"), Json.of("fd00:96::/108")), "strictARP", Json.of(true), "tcpTimeout", Json.of("15m"),
                "tcpFinTimeout", Json.of("30s"), "udpTimeout", Json.of("5m"), "syncPeriod", Json.of("1m"))));
        assertThat(step.rejections()).isEmpty();
        assertThat(step.state().node().settings().ipvs()).isEqualTo(new DataplaneSettings.Ipvs("wrr",
                List.of(Cidr.parse("10.96.0.0/12"), Cidr.parse("fd00:96::/108")), true, Duration.ofMinutes(15), Duration.ofSeconds(30),
                Duration.ofMinutes(5)));
        assertThat(record(Json.obj("ipvs", Json.obj("scheduler", Json.of("lc")))).delta().settingsChanged())
                .as("a new scheduler alone changes the settings (a full sync)").isTrue();
    }

    @Test
    void anAbsentSectionOrABlankSchedulerIsUpstreamsDefault() {
        assertThat(FoldedState.initial().node().settings().ipvs()).isEqualTo(DataplaneSettings.Ipvs.DEFAULT);
        FoldStep step = record(Json.obj("mode", Json.of("ipvs"), "ipvs", Json.obj("scheduler", Json.of(""))));
        assertThat(step.state().node().settings().ipvs()).isEqualTo(DataplaneSettings.Ipvs.DEFAULT);
        assertThat(step.state().node().settings().ipvs().scheduler()).isEqualTo("rr");
        assertThat(step.rejections()).isEmpty();
    }

    @Test
    void badRecordedValuesAreReportedAndDefaulted() {
        FoldStep step = record(Json.obj("mode", Json.of("ipvs"), "ipvs", Json.obj("scheduler", Json.of("fastest"), "excludeCIDRs",
                Json.arr(Json.of("nope"), Json.of("10.96.0.0/12")), "strictARP", Json.of("yes"), "tcpTimeout", Json.of("-5s"),
                "tcpFinTimeout", Json.of("soon"), "udpTimeout", Json.of("-1ms"))));
        DataplaneSettings.Ipvs ipvs = step.state().node().settings().ipvs();
        assertThat(ipvs).isEqualTo(new DataplaneSettings.Ipvs("rr", List.of(Cidr.parse("10.96.0.0/12")), false, Duration.ZERO, Duration.ZERO,
                Duration.ZERO));
        assertThat(step.state().node().settings().mode()).isEqualTo("ipvs");
        assertThat(step.rejections()).extracting(Rejection::field).containsExactlyInAnyOrder("ipvs.scheduler", "ipvs.excludeCIDRs[0]",
                "ipvs.strictARP", "ipvs.tcpTimeout", "ipvs.tcpFinTimeout", "ipvs.udpTimeout");
        assertThat(step.rejections()).allSatisfy(r -> assertThat(r.kind()).isEqualTo("Config"));
        assertThat(step.rejections()).filteredOn(r -> r.field().equals("ipvs.scheduler")).singleElement()
                .satisfies(r -> assertThat(r.reason()).contains("\"fastest\"").contains("must be one of rr, wrr").endsWith("using rr"));
        assertThat(step.rejections()).filteredOn(r -> r.field().equals("ipvs.tcpTimeout")).singleElement()
                .satisfies(r -> assertThat(r.reason()).contains("\"-5s\"").contains("must be greater than or equal to 0").contains("using 0"));
    }

    @Test
    void theSectionIsReadInEveryModeSoThatRenderingInIpvsModeShowsIt() {
        FoldStep step = record(Json.obj("mode", Json.of("nftables"), "ipvs", Json.obj("scheduler", Json.of("sh"))));
        assertThat(step.state().node().settings().ipvs().scheduler()).isEqualTo("sh");
    }
}
