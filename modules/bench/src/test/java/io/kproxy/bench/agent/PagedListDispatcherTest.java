package io.kproxy.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PagedListDispatcherTest {

    private static final String AGENT_SELECTOR = "!service.kubernetes.io/service-proxy-name,!service.kubernetes.io/headless";

    private MockApi api;
    private KubernetesClient client;
    private PagedListDispatcher dispatcher;

    @BeforeEach
    void start() {
        dispatcher = new PagedListDispatcher();
        api = new MockApi(dispatcher);
        client = api.client;
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void aStoredObjectIsStoredAsTheMocksCreateStoresIt() {
        dispatcher.store(SyntheticObjects.service(1));
        dispatcher.store(SyntheticObjects.slice(1, 0, "t"));
        client.services().inNamespace(SyntheticObjects.namespace(1)).resource(renamed(SyntheticObjects.service(1), "created")).create();
        client.discovery().v1().endpointSlices().inNamespace(SyntheticObjects.namespace(1))
                .resource(renamed(SyntheticObjects.slice(1, 0, "t"), "created")).create();

        for (String path : List.of("/api/v1/namespaces/ns-1/services/", "/apis/discovery.k8s.io/v1/namespaces/ns-1/endpointslices/")) {
            String stored = path.contains("services") ? "svc-1" : "svc-1-1";
            Map.Entry<AttributeSet, String> byStore = dispatcher.findResource(dispatcher.getKey(path + stored));
            Map.Entry<AttributeSet, String> byCreate = dispatcher.findResource(dispatcher.getKey(path + "created"));
            assertThat(byStore).as(path).isNotNull();
            assertThat(byStore.getKey().add(new Attribute("name", "created"), new Attribute("metadata.name", "created")))
                    .isEqualTo(byCreate.getKey());
            assertThat(comparable(byStore.getValue(), stored)).isEqualTo(comparable(byCreate.getValue(), "created"));
        }
    }

    @Test
    void aPagedListCoversEveryMatchingObjectOnceInKeyOrderAtTheFirstPagesVersion() {
        for (int i = 0; i < 230; i++) {
            dispatcher.store(SyntheticObjects.slice(i, 0, "t"));
        }
        dispatcher.store(new EndpointSliceBuilder(SyntheticObjects.slice(230, 0, "t")).editMetadata()
                .addToLabels("service.kubernetes.io/service-proxy-name", "other").endMetadata().build());
        var slices = client.discovery().v1().endpointSlices();

        List<String> names = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        String token = null;
        int pages = 0;
        String changedVersion = null;
        do {
            EndpointSliceList page = slices.inAnyNamespace().withLabelSelector(AGENT_SELECTOR)
                    .list(new ListOptionsBuilder().withLimit(50L).withContinue(token).build());
            pages++;
            versions.add(page.getMetadata().getResourceVersion());
            page.getItems().forEach(s -> names.add(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName()));
            if (pages == 1) {
                // A write between pages is not in this list: every page is read at the first one's version.
                EndpointSlice moved = SyntheticObjects.slice(7, 1, "t2");
                moved.getMetadata().setResourceVersion(slices.inNamespace("ns-7").withName("svc-7-1").get().getMetadata().getResourceVersion());
                changedVersion = slices.inNamespace("ns-7").resource(moved).update().getMetadata().getResourceVersion();
            }
            page.getItems().stream().filter(s -> s.getMetadata().getName().equals("svc-7-1"))
                    .forEach(s -> assertThat(s.getMetadata().getAnnotations()).containsValue("t"));
            token = page.getMetadata().getContinue();
        } while (token != null);

        assertThat(pages).isEqualTo(5);
        assertThat(versions).containsOnly(versions.getFirst());
        assertThat(names).hasSize(230).doesNotHaveDuplicates().isSorted().doesNotContain("ns-30/svc-230-1");
        assertThat(dispatcher.openLists()).isZero();
        EndpointSliceList after = slices.inAnyNamespace().withLabelSelector(AGENT_SELECTOR).list();
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(changedVersion);
        assertThat(after.getItems()).hasSize(230).filteredOn(s -> s.getMetadata().getName().equals("svc-7-1"))
                .singleElement().satisfies(s -> assertThat(s.getMetadata().getAnnotations()).containsValue("t2"));
    }

    @Test
    void anInformerListsEveryPageAndWatchesFromTheListsVersion() throws Exception {
        for (int i = 0; i < 120; i++) {
            dispatcher.store(SyntheticObjects.service(i));
        }
        SharedIndexInformer<io.fabric8.kubernetes.api.model.Service> informer = client.services().inAnyNamespace()
                .withLabelSelector(AGENT_SELECTOR).withLimit(25L).runnableInformer(0);
        try {
            informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(informer.getStore().list()).hasSize(120);
            client.services().inNamespace("ns-3").withName("svc-3").delete();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (informer.getStore().list().size() != 119 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(informer.getStore().list()).hasSize(119);
        } finally {
            informer.close();
        }
        assertThat(client.services().inAnyNamespace().list().getItems()).hasSize(119);
        dispatcher.reset();
        assertThat(client.services().inAnyNamespace().list().getItems()).isEmpty();
    }

    @Test
    void anUnknownContinueTokenIsGoneAndStoringWhileWatchedIsRefused() {
        dispatcher.store(SyntheticObjects.service(1));
        assertThatThrownBy(() -> client.services().inAnyNamespace().list(new ListOptionsBuilder().withLimit(1L).withContinue("bm90LW91cnM")
                .build())).isInstanceOf(KubernetesClientException.class).extracting(e -> ((KubernetesClientException) e).getCode())
                .isEqualTo(410);
        var watch = client.services().inAnyNamespace().watch(new ListOptionsBuilder().withResourceVersion("1").build(),
                new io.fabric8.kubernetes.client.Watcher<io.fabric8.kubernetes.api.model.Service>() {
                    @Override
                    public void eventReceived(Action action, io.fabric8.kubernetes.api.model.Service resource) {
                    }

                    @Override
                    public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                    }
                });
        try {
            assertThatThrownBy(() -> dispatcher.store(SyntheticObjects.service(2))).isInstanceOf(IllegalStateException.class);
        } finally {
            watch.close();
        }
    }

    @Test
    void theStoresKeyIsTheMocksExtractorsKey() {
        var extractor = new io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor();
        for (HasMetadata object : List.of(SyntheticObjects.service(5), SyntheticObjects.slice(5, 2, "t"), SyntheticObjects.node(),
                new EndpointSliceBuilder(SyntheticObjects.slice(6, 0, "t")).editMetadata().addToLabels("a", "b").endMetadata().build())) {
            assertThat(PagedListDispatcher.keyOf(object)).as(object.getKind()).isEqualTo(extractor.extract(object));
        }
    }

    @Test
    void clusterIpsStayValidAndDistinctPast64000Services() {
        assertThat(SyntheticObjects.clusterIp(0)).isEqualTo("172.30.0.1");
        assertThat(SyntheticObjects.clusterIp(63_999)).isEqualTo("172.30.255.250");
        assertThat(SyntheticObjects.clusterIp(64_000)).isEqualTo("172.31.0.1");
        assertThat(SyntheticObjects.clusterIp(99_999)).isEqualTo("172.31.143.250");
    }

    private static <T extends HasMetadata> T renamed(T object, String name) {
        object.getMetadata().setName(name);
        return object;
    }

    /** The stored JSON without what differs between two creates (name, uid, time, version). */
    private static JsonNode comparable(String json, String name) {
        ObjectNode tree = (ObjectNode) Serialization.unmarshal(json, JsonNode.class);
        ObjectNode meta = (ObjectNode) tree.get("metadata");
        assertThat(meta.get("name").asText()).isEqualTo(name);
        assertThat(meta.get("uid").asText()).isNotEmpty();
        assertThat(Instant.parse(meta.get("creationTimestamp").asText())).isNotNull();
        assertThat(meta.get("generation").asLong()).isEqualTo(1);
        meta.remove(List.of("name", "uid", "creationTimestamp", "resourceVersion"));
        return tree;
    }
}
