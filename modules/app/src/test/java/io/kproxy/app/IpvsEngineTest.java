package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: the engine drives the installed ipvs backend through its ServiceLoader provider, as
 * it drives the others (over a recording kernel port; the real kernel is programmed inside
 * User-Mode Linux by backend-ipvs's {@code IpvsPacketFlowUmlIT}). The first sync is full; one more endpoint is a partial sync of exactly one real-server
 * operation; both are journaled as {@code SyncApplied} of mode ipvs.
 */
class IpvsEngineTest {

    @Test
    void theEngineRunsTheIpvsBackendFullThenOneRealServer() throws Exception {
        MemoryEventLog log = new MemoryEventLog();
        ProxyConfig config = ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: ipvs\n");
        log.append("t", new ConfigRecorded(new NodeName("node-a"), ConfigTrees.toTree(config))).join();
        MemoryKernelPort kernel = new MemoryKernelPort();
        Engine engine = Engine.start(Engine.Wiring.production(log, BackendProvider.forMode("ipvs").orElseThrow().create(kernel, kernel),
                EngineOptions.of(config), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        try {
            log.append("t", ServiceFixture.service("demo", "web").clusterIP("172.30.0.2").port("http", 80, "TCP", 0).observed()).join();
            log.append("t", EndpointSliceFixture.slice("demo", "web-1", "web").port("http", 8080, "TCP").endpoint("10.0.1.5").node("node-a")
                    .observed()).join();
            log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
            log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> kernel.applied().size() == 1);
            assertThat(kernel.applied().getFirst()).contains("ipvsadm -A -t 172.30.0.2:80 -s rr\n")
                    .contains("ipvsadm -a -t 172.30.0.2:80 -r 10.0.1.5:8080 -m -w 1\n").contains("ip address add 172.30.0.2/32 dev kube-ipvs0\n");

            log.append("t", EndpointSliceFixture.slice("demo", "web-2", "web").port("http", 8080, "TCP").endpoint("10.0.2.6").node("node-b")
                    .observed()).join();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> kernel.applied().size() == 2);
            assertThat(kernel.applied().get(1)).isEqualTo("ipvsadm -a -t 172.30.0.2:80 -r 10.0.2.6:8080 -m -w 1\n");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> syncs(log).size() == 2);
            assertThat(syncs(log)).extracting(SyncApplied::backend).containsOnly("ipvs");
            assertThat(syncs(log)).extracting(SyncApplied::kind).containsExactly(SyncKind.FULL, SyncKind.PARTIAL);
        } finally {
            engine.close(Duration.ofSeconds(5));
        }
    }

    private static List<SyncApplied> syncs(MemoryEventLog log) {
        return log.read(0, 1_000).stream().map(e -> e.event()).filter(SyncApplied.class::isInstance).map(SyncApplied.class::cast).toList();
    }
}
