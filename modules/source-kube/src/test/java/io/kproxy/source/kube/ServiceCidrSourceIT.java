package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.MemoryEventLog;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ServiceCIDRs ({@code networking.k8s.io/v1}) are watched like the other kinds; an API server
 * that does not serve them (404) holds nothing back: Services, EndpointSlices and the Node sync,
 * the log says once what the node does instead, and the kind is recorded once it is served.
 */
class ServiceCidrSourceIT {

    private ScriptedApiServer api;
    private MemoryEventLog log;
    private KubeSource source;
    private LogCapture logs;

    @BeforeEach
    void setUp() {
        api = ScriptedApiServer.start();
        log = new MemoryEventLog();
        logs = new LogCapture();
    }

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        logs.close();
        api.close();
        log.close();
    }

    @Test
    void recordsServiceCidrsAndTheirChanges() throws Exception {
        KubernetesClient c = api.client();
        Kube.create(c, Kube.serviceCidr("kubernetes", "10.96.0.0/16", "fd00:10:96::/112"));
        Kube.create(c, Kube.serviceCidr("extra-v4", "10.200.0.0/24"));
        Kube.create(c, Kube.service("web", "10.96.0.10", Map.of()));

        source = KubeSource.create(TestSources.options(api), log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);

        assertThat(LogView.of(log, ResourceKind.SERVICE_CIDR, 0)).containsExactlyInAnyOrder(
                "observed kubernetes [10.96.0.0/16, fd00:10:96::/112]", "observed extra-v4 [10.200.0.0/24]", "synced SERVICE_CIDR");
        assertThat(LogView.of(log, ResourceKind.SERVICE_CIDR, 0).getLast()).isEqualTo("synced SERVICE_CIDR");
        assertThat(LogView.of(log, ResourceKind.SERVICE, 0)).containsExactly("observed ns1/web", "synced SERVICE");

        long mark = log.nextOffset();
        Kube.replaceServiceCidr(c, "extra-v4", "10.201.0.0/24");
        Kube.deleteServiceCidr(c, "kubernetes");
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.of(log, ResourceKind.SERVICE_CIDR, mark).size() == 2);
        assertThat(LogView.of(log, ResourceKind.SERVICE_CIDR, mark)).containsExactly("observed extra-v4 [10.201.0.0/24]",
                "deleted kubernetes");
        assertThat(logs.lines()).noneMatch(l -> l.contains("kind-not-served"));

        // A restart that finds what the log holds appends nothing for ServiceCIDRs either.
        source.close();
        long end = log.nextOffset();
        source = KubeSource.create(TestSources.options(api), log, LogScan.read(log));
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);
        assertThat(LogView.all(log, end)).isEmpty();
    }

    @Test
    void anApiServerWithoutServiceCidrsStillSyncsTheRestAndSaysSoOnce() throws Exception {
        api.unserve("servicecidrs", true);
        KubernetesClient c = api.client();
        Kube.create(c, Kube.service("web", "10.96.0.10", Map.of()));
        Kube.create(c, Kube.slice("web-1", "web", "10.244.0.5", Map.of()));
        Kube.create(c, Kube.node(TestSources.NODE));

        source = KubeSource.create(TestSources.options(api), log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);

        assertThat(LogView.of(log, ResourceKind.SERVICE, 0)).containsExactly("observed ns1/web", "synced SERVICE");
        assertThat(LogView.of(log, ResourceKind.ENDPOINT_SLICE, 0)).containsExactly("observed ns1/web-1", "synced ENDPOINT_SLICE");
        assertThat(LogView.of(log, ResourceKind.NODE, 0)).containsExactly("observed node-a", "synced NODE");
        assertThat(LogView.of(log, ResourceKind.SERVICE_CIDR, 0)).isEmpty();
        assertThat(source.state().synced()).isTrue();

        // fabric8 keeps asking (with its backoff); the log says it once, at INFO, and no error sticks
        await().atMost(20, TimeUnit.SECONDS).until(() -> api.notFoundAnswers("servicecidrs") >= 3);
        List<String> said = logs.lines().stream().filter(l -> l.contains("kind=SERVICE_CIDR") && !l.startsWith("DEBUG"))
                .filter(l -> !l.contains("decision=start-informer")).toList();
        assertThat(said).singleElement().satisfies(l -> {
            assertThat(l).startsWith("INFO").contains("decision=kind-not-served").contains("reason=http-404")
                    .contains("consequence=\"the configured kproxy.serviceCIDRs stay the service ranges\"");
        });
        assertThat(logs.warnings("")).isEmpty();
        assertThat(source.state().lastError()).doesNotContain("servicecidrs").doesNotContain("SERVICE_CIDR");

        // an API server that starts serving them (an upgrade) is picked up without a restart
        api.unserve("servicecidrs", false);
        Kube.create(c, Kube.serviceCidr("kubernetes", "10.96.0.0/16"));
        await().atMost(40, TimeUnit.SECONDS).until(() -> LogView.of(log, ResourceKind.SERVICE_CIDR, 0).contains("synced SERVICE_CIDR"));
        assertThat(LogView.of(log, ResourceKind.SERVICE_CIDR, 0)).containsExactly("observed kubernetes [10.96.0.0/16]",
                "synced SERVICE_CIDR");
        assertThat(logs.lines()).anyMatch(l -> l.startsWith("INFO") && l.contains("decision=kind-served kind=SERVICE_CIDR"));
    }

    @Test
    void aMissingPermissionIsWarnedOnceAndHoldsNothingBack() throws Exception {
        api.forbid("servicecidrs", true);
        Kube.create(api.client(), Kube.service("web", "10.96.0.10", Map.of()));

        source = KubeSource.create(TestSources.options(api), log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);

        assertThat(LogView.of(log, ResourceKind.SERVICE, 0)).containsExactly("observed ns1/web", "synced SERVICE");
        Thread.sleep(1_500); // several retries
        assertThat(logs.warnings("kind=SERVICE_CIDR")).singleElement()
                .satisfies(w -> assertThat(w).contains("reason=http-403").contains("cannot list resource"));
        assertThat(logs.warnings("")).hasSize(1);
    }
}
