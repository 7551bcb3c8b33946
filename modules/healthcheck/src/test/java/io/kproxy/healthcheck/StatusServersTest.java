package io.kproxy.healthcheck;

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
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.Descriptors;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP endpoints over a real engine (in-memory log, the nftables backend on an in-memory
 * kernel port), on loopback: upstream's paths, status codes, headers and bodies.
 */
class StatusServersTest {

    private final MemoryEventLog log = new MemoryEventLog();
    private final HttpClient http = HttpClient.newHttpClient();
    private ProxyConfig config;
    private Engine engine;
    private StatusServers servers;
    private HealthCheckServers checks;

    @BeforeEach
    void setUp() throws Exception {
        config = ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "healthzBindAddress: 127.0.0.1:" + Descriptors.freePort() + "\nmetricsBindAddress: 127.0.0.1:" + Descriptors.freePort()
                + "\nnodePortAddresses: [127.0.0.0/8]\n");
        log.append("t", new ConfigRecorded(new NodeName("node-a"), ConfigTrees.toTree(config))).join();
        MemoryKernelPort kernel = new MemoryKernelPort();
        engine = Engine.start(Engine.Wiring.production(log, BackendProvider.forMode("nftables").orElseThrow().create(kernel, kernel),
                EngineOptions.of(config), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        servers = StatusServers.bind(config);
        servers.start(engine, config);
        checks = new HealthCheckServers(engine);
        checks.start();
    }

    @AfterEach
    void tearDown() {
        checks.close();
        servers.close();
        engine.close(Duration.ofSeconds(5));
    }

    /** A loopback port nothing listens on right now. */
    private HttpResponse<String> get(InetSocketAddress at, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + path)).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void healthAndLivenessWithUpstreamsBodiesAndHeaders() throws Exception {
        InetSocketAddress h = servers.healthAddress().orElseThrow();
        HttpResponse<String> healthz = get(h, "/healthz");
        assertThat(healthz.statusCode()).isEqualTo(200);
        assertThat(healthz.headers().firstValue("Content-Type")).contains("application/json");
        assertThat(healthz.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(healthz.body()).matches("\\{\"lastUpdated\": \"\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)? \\+0000 UTC\","
                + "\"currentTime\": \".+\", \"nodeEligible\": true}");
        assertThat(get(h, "/livez").body()).startsWith("{\"lastUpdated\": ").doesNotContain("nodeEligible");
        assertThat(get(h, "/healthzz").statusCode()).isEqualTo(404);
    }

    @Test
    void metricsProxyModeConfigzAndThePlainHealthz() throws Exception {
        InetSocketAddress m = servers.metricsAddress().orElseThrow();
        HttpResponse<String> metrics = get(m, "/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("Content-Type")).contains("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.body()).contains("# TYPE kubeproxy_sync_proxy_rules_duration_seconds histogram");
        assertThat(get(m, "/proxyMode").body()).isEqualTo("nftables");
        assertThat(get(m, "/healthz").body()).isEqualTo("ok");
        assertThat(get(m, "/configz").body()).startsWith("{\"kubeproxy.config.k8s.io\":{\"apiVersion\":\"kubeproxy.config.k8s.io/v1alpha1\"");
    }

    @Test
    void aHealthCheckNodePortServerFollowsTheProgrammedState() throws Exception {
        int port = Descriptors.freePort();
        ServiceFixture lb = ServiceFixture.service("demo", "lb").clusterIP("172.30.0.2").type("LoadBalancer").port("http", 80, "TCP", 30080)
                .externalTrafficPolicy("Local").healthCheckNodePort(port).loadBalancerIngress("198.51.100.7");
        log.append("t", lb.observed()).join();
        log.append("t", EndpointSliceFixture.slice("demo", "lb-1", "lb").port("http", 8080, "TCP").endpoint("10.0.1.5").node("node-a")
                .endpoint("10.0.1.6").node("node-a").observed()).join();
        log.append("t", new SourceSynced(ResourceKind.SERVICE, "1")).join();
        log.append("t", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")).join();
        InetSocketAddress at = new InetSocketAddress("127.0.0.1", port);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            try {
                return get(at, "/any/path").statusCode() == 200;
            } catch (java.io.IOException e) {
                return false;
            }
        });
        assertThat(get(at, "/").body()).isEqualTo("{\n\t\"service\": {\n\t\t\"namespace\": \"demo\",\n\t\t\"name\": \"lb\"\n\t},\n"
                + "\t\"localEndpoints\": 2,\n\t\"serviceProxyHealthy\": true\n}");
        log.append("t", EndpointSliceFixture.slice("demo", "lb-1", "lb").port("http", 8080, "TCP").endpoint("10.0.2.5").node("node-b")
                .resourceVersion("2").observed()).join();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> get(at, "/").statusCode() == 503);
        assertThat(get(at, "/").body()).contains("\"localEndpoints\": 0");
        log.append("t", new io.kproxy.events.ServiceDeleted(lb.ref(), "3", false)).join();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
            try {
                get(at, "/");
                return false;
            } catch (java.io.IOException e) {
                return true;
            }
        });
    }
}
