package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.MemoryEventLog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A source restarted with the previous one's {@link ResumePoint} watches Services and
 * EndpointSlices from there instead of listing them, and lists them where it cannot resume: a
 * 410 Gone, another cluster, another API server (docs/operations.md, "Restart").
 */
class SourceResumeIT {

    private ScriptedApiServer api;
    private MemoryEventLog log;
    private ResumePoint point;
    private String apiServiceUid;

    @BeforeEach
    void setUp() throws Exception {
        api = ScriptedApiServer.start();
        log = new MemoryEventLog();
        KubernetesClient c = api.client();
        c.services().resource(new ServiceBuilder()
                .withNewMetadata().withNamespace("default").withName("kubernetes").endMetadata()
                .withNewSpec().withType("ClusterIP").withClusterIP("10.96.0.1")
                .addNewPort().withName("https").withPort(443).withProtocol("TCP").endPort().endSpec().build()).create();
        Kube.create(c, Kube.service("a", "10.96.0.11", Map.of()));
        Kube.create(c, Kube.service("b", "10.96.0.12", Map.of()));
        Kube.create(c, Kube.slice("a-1", "a", "10.244.0.1", Map.of()));
        Kube.create(c, Kube.node(TestSources.NODE));
        apiServiceUid = c.services().inNamespace("default").withName("kubernetes").get().getMetadata().getUid();
        assertThat(apiServiceUid).as("the mock gives created objects a uid").isNotBlank();
        KubeSource first = KubeSource.create(TestSources.options(api), log, KnownObjects.empty());
        try {
            first.start();
            first.synced().get(30, TimeUnit.SECONDS);
            assertThat(first.resumePoint()).as("only a closed source has a point").isEqualTo(ResumePoint.NONE);
        } finally {
            first.close();
        }
        point = first.resumePoint();
    }

    @AfterEach
    void tearDown() {
        api.close();
        log.close();
    }

    /** Informer lists of {@code resource} (the identity check's list of default/kubernetes excepted). */
    private long informerLists(String resource) {
        return api.listQueries(resource).stream().filter(q -> !q.contains("fieldSelector=metadata.name%3Dkubernetes")).count();
    }

    private KubeSource restart(KnownObjects known) throws Exception {
        KubeSource source = KubeSource.create(TestSources.options(api), log, known);
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);
        return source;
    }

    @Test
    void aClosedSourceGivesWhereEachLargeKindStopped() {
        assertThat(point.server()).isEqualTo(api.url());
        assertThat(point.versions()).containsOnlyKeys(ResourceKind.SERVICE, ResourceKind.ENDPOINT_SLICE);
        assertThat(point.version(ResourceKind.NODE)).as("a Node is listed: one object").isEmpty();
    }

    @Test
    void aRestartResumesTheWatchesWithoutListingAndRecordsWhatChangedMeanwhile() throws Exception {
        KubernetesClient c = api.client();
        Kube.labelService(c, "a", "tier", "front");
        Kube.create(c, Kube.service("d", "10.96.0.14", Map.of()));
        long servicesListed = informerLists("services");
        long slicesListed = informerLists("endpointslices");
        long before = log.nextOffset();

        try (KubeSource source = restart(LogScan.read(log).resumingAt(apiServiceUid, point))) {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(LogView.of(log, ResourceKind.SERVICE, before))
                    .containsExactlyInAnyOrder("observed ns1/a", "observed ns1/d"));
            assertThat(informerLists("services")).as("Services resumed, not listed").isEqualTo(servicesListed);
            assertThat(informerLists("endpointslices")).as("EndpointSlices resumed, not listed").isEqualTo(slicesListed);
            assertThat(api.lastWatchQuery("services")).contains("resourceVersion=" + point.version(ResourceKind.SERVICE));
            assertThat(LogView.of(log, ResourceKind.ENDPOINT_SLICE, before)).as("nothing changed, nothing recorded").isEmpty();

            Kube.create(c, Kube.service("e", "10.96.0.15", Map.of()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(LogView.of(log, ResourceKind.SERVICE, before))
                    .contains("observed ns1/e"));
            assertThat(source.state().connected()).as("the resumed watches count as watching").isTrue();
        }
    }

    @Test
    void aBookmarkOnTheResumedWatchMovesTheNextPoint() throws Exception {
        KubeSource source = restart(LogScan.read(log).resumingAt(apiServiceUid, point));
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> source.state().connected());
            api.bookmark("endpointslices", "EndpointSlice", "discovery.k8s.io/v1", "987654");
            Kube.create(api.client(), Kube.service("f", "10.96.0.16", Map.of()));   // a change after the bookmark, on the other kind
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(LogView.of(log, ResourceKind.SERVICE, 0))
                    .contains("observed ns1/f"));
            // The bookmark went out before that change, on its own connection: give its reader a moment more on a loaded machine.
            Thread.sleep(500);
        } finally {
            source.close();
        }
        assertThat(source.resumePoint().version(ResourceKind.ENDPOINT_SLICE)).as("the bookmark's version, though nothing changed")
                .isEqualTo("987654");
        assertThat(source.resumePoint().version(ResourceKind.SERVICE)).isNotEqualTo(point.version(ResourceKind.SERVICE));
    }

    @Test
    void aResumedWatchAnswered410IsListedAndComparedInstead() throws Exception {
        KubernetesClient c = api.client();
        Kube.deleteService(c, "b");
        api.goneOnNextWatch("services");
        long servicesListed = informerLists("services");
        long slicesListed = informerLists("endpointslices");
        long before = log.nextOffset();

        try (KubeSource source = restart(LogScan.read(log).resumingAt(apiServiceUid, point))) {
            // The watch opened, then met the 410 (as an API server answers a version its watch cache no longer holds)
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(LogView.of(log, ResourceKind.SERVICE, before))
                    .as("the list found what the resumed watch could not")
                    .containsExactly("deleted? ns1/b", "relisted SERVICE [default/kubernetes, ns1/a]"));
            assertThat(informerLists("services")).as("the 410 made the Services listed").isGreaterThan(servicesListed);
            assertThat(informerLists("endpointslices")).isEqualTo(slicesListed);
            assertThat(source.state().synced()).isTrue();
        }
    }

    @Test
    void aResumedWatchRefusedOutrightIsListedInstead() throws Exception {
        // A plain HTTP 410 to the watch request itself (no WebSocket): fabric8's watch call fails.
        api.plainGoneOnWatch("endpointslices", true);
        long slicesListed = informerLists("endpointslices");
        long before = log.nextOffset();

        try (KubeSource source = restart(LogScan.read(log).resumingAt(apiServiceUid, point))) {
            assertThat(informerLists("endpointslices")).as("the refused resume made the EndpointSlices listed")
                    .isGreaterThan(slicesListed);
            api.plainGoneOnWatch("endpointslices", false);
            Kube.create(api.client(), Kube.slice("a-2", "a", "10.244.0.2", Map.of()));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(LogView.of(log, ResourceKind.ENDPOINT_SLICE, before))
                    .as("the informer that took over follows changes").contains("observed ns1/a-2"));
            assertThat(source.state().synced()).isTrue();
        }
    }

    @Test
    void anotherClusterOrAnotherApiServerIsListed() throws Exception {
        for (KnownObjects known : List.of(
                LogScan.read(log).resumingAt("another-cluster-uid", point),
                LogScan.read(log).resumingAt(apiServiceUid, new ResumePoint("https://elsewhere.example:6443", point.versions())))) {
            long servicesListed = informerLists("services");
            long slicesListed = informerLists("endpointslices");
            long before = log.nextOffset();
            try (KubeSource source = restart(known)) {
                assertThat(source.state().synced()).isTrue();
                assertThat(informerLists("services")).isGreaterThan(servicesListed);
                assertThat(informerLists("endpointslices")).isGreaterThan(slicesListed);
            }
            assertThat(log.nextOffset()).as("nothing changed, nothing recorded").isEqualTo(before);
        }
    }
}
