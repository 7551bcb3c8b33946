package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kproxy.source.kube.internal.RawObject.RawEndpointSlice;
import io.kproxy.source.kube.internal.RawObject.RawNode;
import io.kproxy.source.kube.internal.RawObject.RawService;
import org.junit.jupiter.api.Test;

class ClientFactoryTest {

    private static final String SLICE = """
            {"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"web-1","namespace":"demo",
             "resourceVersion":"40"},"addressType":"IPv4","endpoints":[{"addresses":["10.244.0.5"]}],
             "ports":[{"port":80,"protocol":"TCP"}]}""";

    @Test
    void watchEventsDecodeStraightToTheRawClasses() {
        KubernetesSerialization serialization = ClientFactory.serialization();

        WatchEvent event = serialization.unmarshal("{\"type\":\"MODIFIED\",\"object\":" + SLICE + "}", WatchEvent.class);
        assertThat(event.getObject()).isInstanceOf(RawEndpointSlice.class);
        RawEndpointSlice fromList = serialization.unmarshal(SLICE, RawEndpointSlice.class);
        assertThat(((RawEndpointSlice) event.getObject()).json()).isEqualTo(fromList.json());
        assertThat(((RawEndpointSlice) event.getObject()).getMetadata().getResourceVersion()).isEqualTo("40");

        assertThat(serialization.unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"a\"}}",
                KubernetesResource.class)).isInstanceOf(RawService.class);
        assertThat(serialization.unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}",
                KubernetesResource.class)).isInstanceOf(RawNode.class);
        WatchEvent gone = serialization.unmarshal("""
                {"type":"ERROR","object":{"apiVersion":"v1","kind":"Status","status":"Failure","code":410,"reason":"Expired"}}""",
                WatchEvent.class);
        assertThat(gone.getObject()).as("errors still decode as fabric8's Status").isInstanceOf(Status.class);
        assertThat(serialization.unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}",
                KubernetesResource.class)).as("no other kind is registered: the model jars are not scanned")
                .isInstanceOf(GenericKubernetesResource.class);
    }

    @Test
    void otherSerializationsKeepTheTypedModel() {
        ClientFactory.serialization();
        assertThat(new KubernetesSerialization().unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"a\"}}",
                KubernetesResource.class)).isInstanceOf(Service.class);
    }
}
