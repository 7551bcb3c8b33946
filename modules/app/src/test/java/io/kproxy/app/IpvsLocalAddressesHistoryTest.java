package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ForwardingBackend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.Envelope;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.history.History;
import io.kproxy.history.Rendering;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.IpAddress;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, exact history in ipvs mode: on a node with more local addresses than its Node
 * object's IPs, the engine records the addresses the backend reads ({@code LocalAddressesObserved},
 * before the sync that uses them), the sync puts NodePort virtual servers on them, and
 * {@code render --at} the sync's time rebuilds the very ruleset the sync hashed; when the
 * addresses change the engine records them again and the next sync follows them.
 */
class IpvsLocalAddressesHistoryTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void theRecordedHashOfASyncIsWhatRenderAtRebuilds() throws Exception {
        MemoryEventLog log = new MemoryEventLog();
        ProxyConfig config = ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n");
        log.append("t", new ConfigRecorded(new NodeName("node-a"), ConfigTrees.toTree(config))).join();
        log.append("t", NodeFixture.node("node-a").internalIP("192.168.0.2").observed()).join();
        MemoryKernelPort kernel = new MemoryKernelPort();
        KernelAddresses backend = new KernelAddresses(BackendProvider.forMode("ipvs").orElseThrow().create(kernel, kernel));
        backend.addresses = List.of(IpAddress.parse("192.168.0.2"), IpAddress.parse("203.0.113.1"));
        Engine engine = Engine.start(Engine.Wiring.production(log, backend, EngineOptions.of(config),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        try {
            log.append("t", ServiceFixture.service("demo", "np").clusterIP("172.30.0.2").port("http", 80, "TCP", 30080).observed()).join();
            log.append("t", EndpointSliceFixture.slice("demo", "np-1", "np").port("http", 8080, "TCP").endpoint("10.0.1.5").node("node-a")
                    .observed()).join();
            log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
            log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
            Awaitility.await().atMost(WAIT).until(() -> syncs(log).size() == 1);
            assertThat(kernel.applied().getFirst()).contains("ipvsadm -A -t 192.168.0.2:30080 -s rr\n")
                    .contains("ipvsadm -A -t 203.0.113.1:30080 -s rr\n");
            Envelope recorded = only(log, LocalAddressesObserved.class);
            assertThat(recorded.source()).isEqualTo(EngineOptions.SOURCE);
            Envelope first = syncs(log).getFirst();
            assertThat(((SyncApplied) first.event()).uptoOffset()).as("the sync reflects the addresses' record")
                    .isGreaterThanOrEqualTo(recorded.offset());
            assertRenderAtMatches(log, first, "203.0.113.1:30080");

            // An address goes, another comes: recorded again before the sync that follows them.
            backend.addresses = List.of(IpAddress.parse("192.168.0.2"), IpAddress.parse("198.51.100.7"));
            log.append("t", EndpointSliceFixture.slice("demo", "np-1", "np").resourceVersion("2").port("http", 8080, "TCP")
                    .endpoint("10.0.1.6").node("node-a").observed()).join();
            Awaitility.await().atMost(WAIT).until(() -> syncs(log).size() >= 2
                    && kernel.applied().stream().anyMatch(t -> t.contains("ipvsadm -A -t 198.51.100.7:30080")));
            Envelope second = syncs(log).getLast();
            assertThat(events(log, LocalAddressesObserved.class)).hasSize(2);
            assertRenderAtMatches(log, second, "198.51.100.7:30080");
            assertThat(kernel.applied().stream().anyMatch(t -> t.contains("ipvsadm -D -t 203.0.113.1:30080"))).isTrue();
        } finally {
            engine.close(Duration.ofSeconds(5));
        }
    }

    /** {@code render --at} the sync's time: its recorded hash, the NodePort on the recorded address. */
    private static void assertRenderAtMatches(MemoryEventLog log, Envelope sync, String virtualServer) {
        try (History history = History.of(log)) {
            Rendering r = history.render(history.at(sync.recordedAt()), Optional.empty());
            assertThat(r.recordedHash()).contains(((SyncApplied) sync.event()).rulesetHash());
            assertThat(r.matchesRecorded()).as("history rebuilds the hash the sync recorded").contains(true);
            assertThat(r.text()).contains("-A -t " + virtualServer);
        }
    }

    private static List<Envelope> syncs(MemoryEventLog log) {
        return events(log, SyncApplied.class);
    }

    private static List<Envelope> events(MemoryEventLog log, Class<?> type) {
        return log.read(0, 1_000).stream().filter(e -> type.isInstance(e.event())).toList();
    }

    private static Envelope only(MemoryEventLog log, Class<?> type) {
        List<Envelope> all = events(log, type);
        assertThat(all).hasSize(1);
        return all.getFirst();
    }

    /** The installed ipvs backend, with the node's local addresses a test sets (the recording kernel port has none). */
    private static final class KernelAddresses extends ForwardingBackend {

        volatile List<IpAddress> addresses = List.of();

        KernelAddresses(Backend delegate) {
            super(delegate);
        }

        @Override
        public Optional<List<IpAddress>> localAddresses() {
            return Optional.of(addresses);
        }
    }
}
