package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.history.History;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import io.kproxy.testkit.SettableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, item 4: {@code kproxy render --mode ipvs} and a journal's render show the node's
 * configured {@code ipvs} section (docs/backends/ipvs.md, "Configuration"), not the backend's
 * defaults: from {@code --config}, and from the {@code ConfigRecorded} in force at the point asked.
 */
class IpvsRenderSettingsTest {

    @Test
    void renderWithAConfigFileShowsItsSchedulerAndTimeouts(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n"
                + "ipvs:\n  scheduler: sh\n  tcpTimeout: 15m\n  strictARP: true\n");
        RenderCommandTest.Run r = RenderCommandTest.run("render", "--objects", RenderCommandTest.OBJECTS.toString(), "--node", "node-a",
                "--mode", "ipvs", "--config", config.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(3);
        assertThat(r.out()).contains("# demo/web:http tcp\n-A -t 172.30.0.10:80 -s sh\n").doesNotContain("-s rr")
                .contains("# ipvs settings\n# ipvsadm --set 900 0 0\n# sysctl net/ipv4/conf/all/arp_ignore=1\n");
    }

    @Test
    void aJournalRendersWithTheSectionRecordedAtThatPoint() {
        SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
        MemoryEventLog log = new MemoryEventLog(clock);
        NodeName node = new NodeName("node-a");
        log.append("t", new ConfigRecorded(node, Json.obj("mode", Json.of("ipvs"), "ipvs", Json.obj("scheduler", Json.of("wrr"),
                "udpTimeout", Json.of("5m"))))).join();
        log.append("t", ServiceFixture.service("demo", "web").clusterIP("172.30.0.2").port("http", 80, "TCP", 0).observed()).join();
        log.append("t", EndpointSliceFixture.slice("demo", "web-1", "web").port("http", 8080, "TCP").endpoint("10.0.1.5").node("node-a")
                .observed()).join();
        log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
        long first = log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
        clock.set(Instant.parse("2026-01-01T00:10:00Z"));
        // A later record with a bad scheduler: reported by the fold and rendered with rr, never a stop.
        long second = log.append("t", new ConfigRecorded(node, Json.obj("mode", Json.of("ipvs"), "ipvs", Json.obj("scheduler",
                Json.of("fastest"))))).join();
        try (History h = History.of(log)) {
            String before = h.render(h.atOffset(first), Optional.empty()).text();
            assertThat(before).contains("-A -t 172.30.0.2:80 -s wrr\n").contains("# ipvsadm --set 0 0 300\n");
            assertThat(h.render(h.desiredAt(Instant.parse("2026-01-01T00:05:00Z")), Optional.empty()).text()).isEqualTo(before);
            String after = h.render(h.atOffset(second), Optional.empty()).text();
            assertThat(after).contains("-A -t 172.30.0.2:80 -s rr\n").doesNotContain("ipvsadm --set");
        }
    }
}
