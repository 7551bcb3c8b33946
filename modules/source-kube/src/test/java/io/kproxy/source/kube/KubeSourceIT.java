package io.kproxy.source.kube;

import static io.kproxy.source.kube.Kube.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.KubeObjects;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceObserved;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.NodeName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Adds, updates and deletes of all three kinds reach the log in order; filtered objects never do. */
class KubeSourceIT {

    private ScriptedApiServer api;
    private MemoryEventLog log;
    private KubeSource source;

    @BeforeEach
    void setUp() {
        api = ScriptedApiServer.start();
        log = new MemoryEventLog();
    }

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        api.close();
        log.close();
    }

    @Test
    void recordsTheClusterThenEveryChangeInOrder() throws Exception {
        KubernetesClient c = api.client();
        Service web = Kube.service("web", "10.96.0.10", Map.of("app", "web"));
        web.getMetadata().setAnnotations(Map.of(KubeObjects.LAST_APPLIED, "{\"big\":true}", "team", "blue"));
        web.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply").build()));
        Kube.create(c, web);
        for (int i = 1; i <= 4; i++) {
            Kube.create(c, Kube.service("svc-" + i, "10.96.0." + (20 + i), Map.of()));
        }
        Kube.create(c, Kube.service("other-proxy", "10.96.0.30", Map.of("service.kubernetes.io/service-proxy-name", "foo")));
        Kube.create(c, Kube.service("headless", "None", Map.of("service.kubernetes.io/headless", "")));
        Kube.create(c, Kube.slice("web-1", "web", "10.244.0.5", Map.of()));
        Kube.create(c, Kube.slice("headless-1", "headless", "10.244.0.6", Map.of("service.kubernetes.io/headless", "")));
        Kube.create(c, Kube.node("node-a"));
        Kube.create(c, Kube.node("node-b"));

        source = KubeSource.create(TestSources.options(api), log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);

        assertThat(LogView.of(log, ResourceKind.SERVICE, 0)).containsExactlyInAnyOrder(
                "observed ns1/web", "observed ns1/svc-1", "observed ns1/svc-2", "observed ns1/svc-3", "observed ns1/svc-4",
                "synced SERVICE");
        assertThat(LogView.of(log, ResourceKind.SERVICE, 0).getLast()).isEqualTo("synced SERVICE");
        assertThat(LogView.of(log, ResourceKind.ENDPOINT_SLICE, 0)).containsExactly("observed ns1/web-1", "synced ENDPOINT_SLICE");
        assertThat(LogView.of(log, ResourceKind.NODE, 0)).containsExactly("observed node-a", "synced NODE");
        assertThat(api.continuedPages("services")).as("5 services in pages of 2").isEqualTo(2);

        ServiceObserved recordedWeb = (ServiceObserved) find(log, "observed ns1/web");
        assertThat(recordedWeb.object().object("metadata").fields()).doesNotContainKey("managedFields");
        assertThat(recordedWeb.object().object("metadata").object("annotations").fields())
                .containsOnlyKeys("team");
        assertThat(recordedWeb.resourceVersion()).isEqualTo(KubeObjects.resourceVersion(recordedWeb.object())).isNotEmpty();
        EndpointSliceObserved slice = (EndpointSliceObserved) find(log, "observed ns1/web-1");
        assertThat(slice.object().object("metadata").object("annotations").string("endpoints.kubernetes.io/last-change-trigger-time"))
                .contains("2025-01-02T03:04:05Z");
        assertThat(log.read(0, 1).getFirst().source()).isEqualTo(KubeSourceOptions.DEFAULT_SOURCE);

        long mark = log.nextOffset();
        Kube.labelService(c, "web", "tier", "front");
        Kube.labelService(c, "svc-1", "service.kubernetes.io/service-proxy-name", "someone-else");
        Kube.deleteService(c, "svc-2");
        Kube.create(c, Kube.service("svc-5", "10.96.0.25", Map.of()));
        Kube.labelService(c, "other-proxy", "tier", "hidden");
        c.discovery().v1().endpointSlices().inNamespace(NS).withName("web-1").edit(s -> {
            s.getEndpoints().getFirst().getConditions().setReady(false);
            return s;
        });
        c.discovery().v1().endpointSlices().inNamespace(NS).withName("web-1").delete();
        Kube.labelNode(c, "node-a", "role", "worker");
        Kube.labelNode(c, "node-b", "role", "worker");
        c.nodes().withName("node-a").delete();

        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.of(log, ResourceKind.NODE, mark).contains("deleted node-a")
                && LogView.of(log, ResourceKind.SERVICE, mark).contains("observed ns1/svc-5")
                && LogView.of(log, ResourceKind.ENDPOINT_SLICE, mark).contains("deleted ns1/web-1"));

        assertThat(LogView.of(log, ResourceKind.SERVICE, mark)).containsExactly(
                "observed ns1/web", "deleted ns1/svc-1", "deleted ns1/svc-2", "observed ns1/svc-5");
        assertThat(LogView.of(log, ResourceKind.ENDPOINT_SLICE, mark)).containsExactly("observed ns1/web-1", "deleted ns1/web-1");
        assertThat(LogView.of(log, ResourceKind.NODE, mark)).containsExactly("observed node-a", "deleted node-a");
        ServiceObserved updated = (ServiceObserved) LogView.records(log, mark).getFirst().event();
        assertThat(updated.object().object("metadata").object("labels").string("tier")).contains("front");

        SourceState state = source.state();
        assertThat(state.connected()).isTrue();
        assertThat(state.synced()).isTrue();
        assertThat(state.relists()).isZero();
        assertThat(state.queueDepth()).isZero();
        assertThat(state.appended()).isEqualTo(log.nextOffset());
        assertThat(state.lastEventTime()).isAfter(Instant.EPOCH);
    }

    @Test
    void readsTheApiServerFromAKubeconfig(@TempDir Path dir) throws Exception {
        Kube.create(api.client(), Kube.service("web", "10.96.0.10", Map.of()));
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: mock
                  cluster:
                    server: %s
                contexts:
                - name: mock
                  context:
                    cluster: mock
                    user: nobody
                current-context: mock
                users:
                - name: nobody
                  user: {}
                """.formatted(api.url()));
        KubeSourceOptions options = KubeSourceOptions.defaults(new NodeName(TestSources.NODE)).withKubeconfig(kubeconfig.toString());

        source = KubeSource.create(options, log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);

        assertThat(LogView.of(log, ResourceKind.SERVICE, 0)).containsExactly("observed ns1/web", "synced SERVICE");
    }

    @Test
    void aMissingKubeconfigIsAnInvalidArgument(@TempDir Path dir) {
        KubeSourceOptions options = KubeSourceOptions.defaults(new NodeName(TestSources.NODE))
                .withKubeconfig(dir.resolve("absent").toString());
        assertThatThrownBy(() -> KubeSource.create(options, log, KnownObjects.empty()))
                .isInstanceOf(ClientConfigException.class)
                .hasMessage("kubeconfig " + dir.resolve("absent") + ": (file): cannot read: no such file");
    }

    private static ClusterEvent find(MemoryEventLog log, String description) {
        for (Envelope e : LogView.records(log, 0)) {
            if (LogView.describe(e.event()).equals(description)) {
                return e.event();
            }
        }
        throw new AssertionError("no record " + description + " in " + LogView.all(log, 0));
    }
}
