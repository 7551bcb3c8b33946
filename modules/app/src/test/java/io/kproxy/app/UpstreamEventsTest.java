package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.app.node.ConntrackSettings;
import io.kproxy.app.node.Knob;
import io.kproxy.app.node.Setting;
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
import io.kproxy.healthcheck.HealthCheckServers;
import io.kproxy.healthcheck.StatusServers;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.NodeName;
import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.EventRecorder;
import io.kproxy.source.kube.ObjectRef;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Where the agent records upstream kube-proxy's Events, and with which fields. */
class UpstreamEventsTest {

    /** Keeps what it is given. */
    static final class Recorded implements EventRecorder {
        final List<ApiEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void record(ApiEvent event) {
            events.add(event);
        }

        @Override
        public void close() {
        }
    }

    private static ServerSocket occupy() throws IOException {
        return new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    private static ProxyConfig config(String health, String metrics, boolean hardFail) {
        return ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "healthzBindAddress: " + health + "\nmetricsBindAddress: " + metrics + "\nbindAddressHardFail: " + hardFail
                + "\nnodePortAddresses: [127.0.0.0/8]\n");
    }

    @Test
    void startingIsUpstreamsBirthCryOnTheNode() {
        assertThat(UpstreamEvents.starting("node-a"))
                .isEqualTo(new ApiEvent(ApiEvent.Type.NORMAL, "Starting", "StartKubeProxy", "", new ObjectRef("", "Node", "", "node-a", "node-a")));
    }

    @Test
    void takenHealthAndMetricsPortsRecordUpstreamsWarningsOnTheNode() throws Exception {
        Recorded events = new Recorded();
        try (ServerSocket h = occupy(); ServerSocket m = occupy();
             StatusServers s = StatusServers.bind(config("127.0.0.1:" + h.getLocalPort(), "127.0.0.1:" + m.getLocalPort(), false),
                     new BindFailureEvents(events, "node-a"))) {
            assertThat(s.healthAddress()).isEmpty();
            assertThat(events.events).hasSize(2);
            ApiEvent health = events.events.get(0);
            assertThat(health.type()).isEqualTo(ApiEvent.Type.WARNING);
            assertThat(health.reason()).isEqualTo("FailedToStartProxierHealthcheck");
            assertThat(health.action()).isEqualTo("StartKubeProxy");
            assertThat(health.note()).startsWith("failed to start proxier healthz on 127.0.0.1:" + h.getLocalPort() + ": ");
            assertThat(health.regarding()).isEqualTo(ObjectRef.node("node-a"));
            ApiEvent metrics = events.events.get(1);
            assertThat(metrics.reason()).isEqualTo("FailedToStartMetricServer");
            assertThat(metrics.note()).startsWith("starting metrics server failed: listen 127.0.0.1:" + m.getLocalPort() + ": ");
        }
    }

    @Test
    void withHardFailTheWarningIsRecordedBeforeTheStartStops() throws Exception {
        Recorded events = new Recorded();
        try (ServerSocket h = occupy()) {
            assertThatThrownBy(() -> StatusServers.bind(config("127.0.0.1:" + h.getLocalPort(), "", true), new BindFailureEvents(events, "node-a")))
                    .isInstanceOf(IOException.class);
        }
        assertThat(events.events).extracting(ApiEvent::reason).containsExactly("FailedToStartProxierHealthcheck");
    }

    @Test
    void aTakenHealthCheckNodePortRecordsTheWarningOnTheService() throws Exception {
        MemoryEventLog log = new MemoryEventLog();
        ProxyConfig config = config("", "", false);
        log.append("t", new ConfigRecorded(new NodeName("node-a"), ConfigTrees.toTree(config))).join();
        MemoryKernelPort kernel = new MemoryKernelPort();
        Engine engine = Engine.start(Engine.Wiring.production(log, BackendProvider.forMode("nftables").orElseThrow().create(kernel, kernel),
                EngineOptions.of(config), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        Recorded events = new Recorded();
        try (ServerSocket taken = occupy(); HealthCheckServers checks = new HealthCheckServers(engine, new BindFailureEvents(events, "node-a"))) {
            checks.start();
            int port = taken.getLocalPort();
            log.append("t", ServiceFixture.service("demo", "lb").clusterIP("172.30.0.2").type("LoadBalancer").port("http", 80, "TCP", 30080)
                    .externalTrafficPolicy("Local").healthCheckNodePort(port).loadBalancerIngress("198.51.100.7").observed()).join();
            log.append("t", EndpointSliceFixture.slice("demo", "lb-1", "lb").port("http", 8080, "TCP").endpoint("10.0.1.5").node("node-a")
                    .observed()).join();
            log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
            log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();

            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !events.events.isEmpty());
            ApiEvent e = events.events.getFirst();
            assertThat(e.type()).isEqualTo(ApiEvent.Type.WARNING);
            assertThat(e.reason()).isEqualTo("FailedToStartServiceHealthcheck");
            assertThat(e.action()).isEqualTo("Listen");
            assertThat(e.note()).startsWith("node node-a failed to start healthcheck \"demo/lb\" on port " + port + ": ");
            assertThat(e.regarding()).isEqualTo(new ObjectRef("", "Service", "demo", "lb", "demo/lb"));
        } finally {
            engine.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void aReadOnlySysIsRecordedAsUpstreamsReadOnlySysFsWarning() {
        Setting readOnly = new Setting.Refused(Knob.CONNTRACK_HASHSIZE, 1024, 32768, ConntrackSettings.READ_ONLY_SYSFS);
        assertThat(UpstreamEvents.fromNodeSettings("node-a", List.of(readOnly))).containsExactly(
                ApiEvent.warning("readOnlySysFS", "StartKubeProxy", "CRI error: /sys is read-only: cannot modify conntrack limits, "
                        + "problems may arise later (If running Docker, see docker issue #24000)", ObjectRef.node("node-a")));
        Setting otherRefusal = new Setting.Refused(Knob.NF_CONNTRACK_MAX, 1024, 32768, "not the initial network namespace");
        assertThat(UpstreamEvents.fromNodeSettings("node-a", List.of(otherRefusal))).isEmpty();
    }
}
