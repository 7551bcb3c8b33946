package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import org.junit.jupiter.api.Test;

class KeyVersionStoreTest {

    private static Service service(String ns, String name, String rv) {
        return new ServiceBuilder().withNewMetadata().withNamespace(ns).withName(name).withResourceVersion(rv).addToLabels("app", "x")
                .endMetadata().withNewSpec().withClusterIP("10.96.0.1").endSpec().build();
    }

    @Test
    void keepsOnlyKeyAndVersionAndHandsBackObjectsCarryingThem() {
        KeyVersionStore<Service> store = new KeyVersionStore<>(Service::new);
        Service web = service("demo", "web", "7");
        String key = store.getKey(web);
        assertThat(key).isEqualTo("demo/web");
        assertThat(store.put(key, web)).isNull();
        Service back = store.get(key);
        assertThat(back.getMetadata().getNamespace()).isEqualTo("demo");
        assertThat(back.getMetadata().getName()).isEqualTo("web");
        assertThat(back.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(back.getSpec()).as("no content is kept").isNull();
        assertThat(back.getMetadata().getLabels()).isNullOrEmpty();

        Service previous = store.put(key, service("demo", "web", "8"));
        assertThat(previous.getMetadata().getResourceVersion()).isEqualTo("7");
        assertThat(store.size()).isEqualTo(1);
        assertThat(store.keySet()).containsExactly("demo/web");
        assertThat(store.values()).extracting(s -> s.getMetadata().getResourceVersion()).containsExactly("8");
        assertThat(store.remove(key).getMetadata().getResourceVersion()).isEqualTo("8");
        assertThat(store.get(key)).isNull();
        assertThat(store.remove(key)).isNull();
        assertThat(store.isFullState()).as("fabric8 streams the initial list instead of deferring it").isFalse();
    }

    @Test
    void clusterScopedObjectsAndMissingVersions() {
        KeyVersionStore<Node> store = new KeyVersionStore<>(Node::new);
        Node n = new NodeBuilder().withNewMetadata().withName("node-a").endMetadata().build();
        store.put(store.getKey(n), n);
        Node back = store.get("node-a");
        assertThat(back.getMetadata().getNamespace()).isNull();
        assertThat(back.getMetadata().getName()).isEqualTo("node-a");
        assertThat(back.getMetadata().getResourceVersion()).isNull();
    }
}
