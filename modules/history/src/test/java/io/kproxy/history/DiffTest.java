package io.kproxy.history;

import static io.kproxy.history.TestLog.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code diff} beyond the sample's goldens: node-wide changes, nothing changed, points out of order. */
class DiffTest {

    @Test
    void aNewNodeAddressIsANodeWideChangeCausedByTheNodeRecord() {
        TestLog l = TestLog.threeServices();
        long before = l.log.nextOffset() - 1;
        l.at("00:00:20", NodeFixture.node(TestLog.NODE).internalIP("192.168.0.9").resourceVersion("8").observed());
        try (History h = History.of(l.log)) {
            String out = h.diff(h.atOffset(before), h.desiredAt(t("00:00:30")), Optional.empty());
            assertThat(out).contains("node-wide rules changed\n\n== node-wide\n")
                    .contains("- add element ip kube-proxy nodeport-ips { 192.168.0.2 }\n+ add element ip kube-proxy nodeport-ips { 192.168.0.9 }\n")
                    .contains("caused by:\n  #10 2026-01-01T00:00:20.000Z NodeObserved node/node-a rv 8\n");
        }
    }

    @Test
    void twoPointsOnTheSameStateChangeNothing() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:20", NodeFixture.node(TestLog.NODE).internalIP("192.168.0.2").resourceVersion("8").observed());
        try (History h = History.of(l.log)) {
            String out = h.diff(h.atOffset(9), h.atOffset(10), Optional.of("iptables"));
            assertThat(out).startsWith("kproxy diff: iptables rulesets\n").contains("records between: 1 (#10..#10), NodeObserved 1\n")
                    .endsWith("no rule changed\n");
            assertThatThrownBy(() -> h.diff(h.atOffset(10), h.atOffset(9), Optional.empty())).isInstanceOfSatisfying(HistoryException.class,
                    e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.BAD_ARGUMENT));
        }
    }

    /**
     * Issue 19, item 9: ns/web and ns/web2 both send to the pod 10.0.1.11:8080, so both claim its
     * one hairpin element and ns/web (first by service port) writes it. Across a restart ns/web
     * loses the pod; the element stays in the kernel, now written in ns/web2's part. That is no
     * change of ns/web2, whose records did not change: one Service changed, not two.
     */
    @Test
    void aSharedElementThatChangesHandsAcrossARestartIsNoChange() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:04", ServiceFixture.service("ns", "web2").clusterIP("172.30.0.14").port("http", 80, "TCP").resourceVersion("14").observed());
        long upto = l.at("00:00:04.100", EndpointSliceFixture.slice("ns", "web2-1", "web2").port("http", 8080, "TCP").endpoint("10.0.1.11")
                .resourceVersion("24").observed());
        l.at("00:00:05", new SyncApplied("nftables", 1, upto, SyncKind.FULL, "0".repeat(64), Duration.ofMillis(3)));
        // The restart: the agent records its configuration again, relists, and syncs in full.
        l.at("00:01:00", new ConfigRecorded(new NodeName(TestLog.NODE), Json.obj("mode", Json.of("nftables"), "clusterCIDR", Json.of("10.0.0.0/16"))));
        l.at("00:01:00.100", TestLog.webSlice("31", "10.0.1.12").observed());
        l.at("00:01:00.200", new SourceRelisted(ResourceKind.SERVICE, "40", Set.of("ns/web", "ns/web2", "ns/lb", "ns/none", "ns/headless")));
        l.at("00:01:00.300", new SourceRelisted(ResourceKind.ENDPOINT_SLICE, "40", Set.of("ns/web-1", "ns/web2-1", "ns/lb-1")));
        l.at("00:01:00.400", new SourceSynced(ResourceKind.SERVICE, "40"));
        long after = l.at("00:01:00.500", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "40"));
        l.at("00:01:01", new SyncApplied("nftables", 1, after, SyncKind.FULL, "1".repeat(64), Duration.ofMillis(3)));
        try (History h = History.of(l.log)) {
            String out = h.diff(h.at(t("00:00:30")), h.at(t("00:01:30")), Optional.empty());
            assertThat(out).contains("1 Service changed, node-wide rules unchanged\n").contains("\n== ns/web\n").doesNotContain("== ns/web2")
                    .doesNotContain("no record between the two points touched it")
                    .doesNotContain("hairpin-connections { 10.0.1.11 ")
                    .contains("1 shared line written under another Service than before, unchanged in the kernel (not shown)\n");
        }
    }
}
