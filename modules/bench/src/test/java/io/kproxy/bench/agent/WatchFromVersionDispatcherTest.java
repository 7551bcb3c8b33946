package io.kproxy.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WatchFromVersionDispatcherTest {

    private MockApi api;
    private KubernetesClient client;
    private WatchFromVersionDispatcher dispatcher;

    @BeforeEach
    void start() {
        dispatcher = new WatchFromVersionDispatcher();
        api = new MockApi(dispatcher);
        client = api.client;
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private static Service service(String name, String ip) {
        return new ServiceBuilder().withNewMetadata().withNamespace("a").withName(name).endMetadata()
                .withNewSpec().withClusterIP(ip).endSpec().build();
    }

    @Test
    void aWatchFromTheListsVersionGetsOnlyLaterChangesAndOneWithoutAVersionGetsEverything() throws Exception {
        client.services().resource(service("one", "10.96.0.1")).create();
        client.services().resource(service("two", "10.96.0.2")).create();
        String listed = client.services().inAnyNamespace().list().getMetadata().getResourceVersion();

        Events fromVersion = new Events();
        Events fromNothing = new Events();
        Watch afterList = client.services().inAnyNamespace().watch(new ListOptionsBuilder().withResourceVersion(listed).build(), fromVersion);
        Watch everything = client.services().inAnyNamespace().watch(fromNothing);
        try {
            assertThat(fromNothing.take(2)).as("the mock's own behaviour without a version").containsOnly("ADDED");
            assertThat(fromVersion.events.poll(500, TimeUnit.MILLISECONDS)).as("no initial ADDED after the list").isNull();

            client.services().inNamespace("a").withName("one").edit(s -> new ServiceBuilder(s).editMetadata().addToLabels("x", "y")
                    .endMetadata().build());
            assertThat(fromVersion.take(1)).containsExactly("MODIFIED one");
        } finally {
            afterList.close();
            everything.close();
        }
    }

    @Test
    void anObjectIsFoundByItsNameThroughCreateUpdatePatchDeleteAndCreateAgain() {
        var services = client.services().inNamespace("a");
        Service created = services.resource(service("one", "10.96.0.1")).create();
        services.resource(service("two", "10.96.0.2")).create();
        long before = dispatcher.indexedLookups();

        Service updated = services.resource(new ServiceBuilder(created).editMetadata().addToLabels("x", "1").endMetadata().build()).update();
        assertThat(updated.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());
        Service stale = new ServiceBuilder(created).editMetadata().addToLabels("x", "stale").endMetadata().build();
        assertThatThrownBy(() -> services.resource(stale).update()).isInstanceOf(KubernetesClientException.class)
                .extracting(e -> ((KubernetesClientException) e).getCode()).isEqualTo(409);
        Service patched = services.withName("one").edit(s -> new ServiceBuilder(s).editMetadata().addToLabels("x", "2").endMetadata().build());
        assertThat(patched.getMetadata().getLabels()).containsEntry("x", "2");
        assertThat(dispatcher.indexedLookups() - before).as("update, refused update and patch found through the index").isEqualTo(3);

        services.withName("one").delete();
        assertThat(services.withName("one").get()).isNull();
        assertThatThrownBy(() -> services.resource(updated).update()).isInstanceOf(KubernetesClientException.class);
        services.resource(service("one", "10.96.0.9")).create();
        assertThat(services.withName("one").get().getSpec().getClusterIP()).isEqualTo("10.96.0.9");
        var found = dispatcher.findResource(dispatcher.getKey("/api/v1/namespaces/a/services/one"));
        assertThat(found.getValue()).contains("10.96.0.9");
        assertThat(dispatcher.findResource(dispatcher.getKey("/api/v1/namespaces/a/services/two")).getValue()).contains("10.96.0.2");
        assertThat(dispatcher.findResource(dispatcher.getKey("/api/v1/namespaces/b/services/one"))).isNull();
        assertThat(WatchFromVersionDispatcher.objectName(dispatcher.getKey("/api/v1/namespaces/a/services/one")))
                .containsExactly("services", "a", "one");
        assertThat(WatchFromVersionDispatcher.objectName(dispatcher.getKey("/api/v1/namespaces/a/services"))).isNull();
    }

    @Test
    void readsTheVersionFromTheQuery() {
        assertThat(WatchFromVersionDispatcher.fromVersion("/api/v1/services?allowWatchBookmarks=true&resourceVersion=42&watch=true"))
                .isTrue();
        assertThat(WatchFromVersionDispatcher.fromVersion("/api/v1/services?resourceVersion=0&watch=true")).isFalse();
        assertThat(WatchFromVersionDispatcher.fromVersion("/api/v1/services?resourceVersion=&watch=true")).isFalse();
        assertThat(WatchFromVersionDispatcher.fromVersion("/api/v1/services?watch=true")).isFalse();
        assertThat(WatchFromVersionDispatcher.fromVersion("/api/v1/services")).isFalse();
    }

    private static final class Events implements Watcher<Service> {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void eventReceived(Action action, Service resource) {
            events.add(action == Action.ADDED ? "ADDED" : action + " " + resource.getMetadata().getName());
        }

        @Override
        public void onClose(WatcherException cause) {
        }

        List<String> take(int n) throws InterruptedException {
            List<String> out = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                String e = events.poll(5, TimeUnit.SECONDS);
                assertThat(e).as("event %d of %d", i + 1, n).isNotNull();
                out.add(e);
            }
            return out;
        }
    }
}
