package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LogScanTest {

    private static ServiceObserved svc(String name, String rv) {
        return ServiceFixture.service("ns1", name).resourceVersion(rv).clusterIP("10.0.0.1").port("http", 80, "TCP").observed();
    }

    private static final List<ClusterEvent> HISTORY = List.of(
            svc("a", "1"),
            svc("b", "2"),
            svc("c", "3"),
            new ServiceDeleted(svc("b", "2").service(), "4", false),
            new SourceSynced(ResourceKind.SERVICE, "4"),
            EndpointSliceFixture.slice("ns1", "a-1", "a").resourceVersion("5").endpoint("10.1.0.1").observed(),
            NodeFixture.node("node-a").resourceVersion("6").observed(),
            new NodeDeleted(new NodeName("node-a"), "7", false),
            new SourceSynced(ResourceKind.NODE, "7"),
            svc("a", "8"),
            new SourceRelisted(ResourceKind.SERVICE, "9", Set.of("ns1/a")));

    @Test
    void foldsObservationsDeletesRelistsAndBarriers() {
        KnownObjects known = LogScan.fold(HISTORY);

        assertThat(known.objects(ResourceKind.SERVICE)).containsOnlyKeys("ns1/a");
        assertThat(known.objects(ResourceKind.SERVICE).get("ns1/a")).isEqualTo(ObjectFingerprint.of(svc("a", "8").object()));
        assertThat(known.objects(ResourceKind.SERVICE).get("ns1/a").resourceVersion()).isEqualTo("8");
        assertThat(known.objects(ResourceKind.ENDPOINT_SLICE)).containsOnlyKeys("ns1/a-1");
        assertThat(known.objects(ResourceKind.NODE)).isEmpty();
        assertThat(known.synced(ResourceKind.SERVICE)).isTrue();
        assertThat(known.synced(ResourceKind.NODE)).isTrue();
        assertThat(known.synced(ResourceKind.ENDPOINT_SLICE)).isFalse();
    }

    @Test
    void relistedDropsWhatItDoesNotList() {
        KnownObjects known = LogScan.fold(List.of(svc("a", "1"), svc("c", "3"),
                new SourceRelisted(ResourceKind.SERVICE, "9", Set.of("ns1/c"))));
        assertThat(known.objects(ResourceKind.SERVICE)).containsOnlyKeys("ns1/c");
    }

    @Test
    void readingALogEqualsFoldingItsEvents() {
        try (MemoryEventLog log = new MemoryEventLog()) {
            for (ClusterEvent e : HISTORY) {
                log.append("source/kube", e).join();
            }
            KnownObjects read = LogScan.read(log);
            KnownObjects folded = LogScan.fold(HISTORY);
            for (ResourceKind k : ResourceKind.values()) {
                assertThat(read.objects(k)).isEqualTo(folded.objects(k));
                assertThat(read.synced(k)).isEqualTo(folded.synced(k));
            }
        }
    }

    @Test
    void refusesALogWhoseBeginningWasRemoved() {
        try (RefusingEventLog log = new RefusingEventLog(new MemoryEventLog())) {
            log.pretendFirstOffset(5);
            assertThatThrownBy(() -> LogScan.read(log)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("offset 5");
        }
    }
}
