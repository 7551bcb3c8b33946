package io.kproxy.source.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kproxy.model.Json;
import io.kproxy.source.kube.ObjectFingerprint;
import io.kproxy.source.kube.internal.RawObject.RawEndpointSlice;
import io.kproxy.source.kube.internal.RawObject.RawNode;
import io.kproxy.source.kube.internal.RawObject.RawService;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link RawJson} against the path it replaced: fabric8's typed model, {@code convertValue} to a
 * Jackson tree, and that tree as {@link Json} ({@link JsonTrees}). Restarts compare fingerprints
 * with what the log holds, so the two must agree on every object a server sends.
 */
class RawJsonTest {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** A list item as an API server sends it: no apiVersion or kind, nulls, empty arrays. */
    private static final String SERVICE = """
            {"metadata":{"name":"web","namespace":"demo","uid":"0b6c","resourceVersion":"812",
              "creationTimestamp":"2026-11-25T10:00:00Z","labels":{"app":"web"},
              "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}","team":"a"},
              "managedFields":[{"manager":"kubectl","operation":"Update","fieldsV1":{"f:spec":{}}}],
              "finalizers":[],"deletionTimestamp":null},
             "spec":{"ports":[{"name":"http","protocol":"TCP","port":80,"targetPort":8080,"nodePort":30080},
                              {"name":"dns","protocol":"UDP","port":53,"targetPort":"dns"}],
                     "selector":{"app":"web"},"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],
                     "type":"NodePort","externalIPs":[],"sessionAffinity":"ClientIP",
                     "sessionAffinityConfig":{"clientIP":{"timeoutSeconds":10800}},
                     "externalTrafficPolicy":"Local","healthCheckNodePort":null,
                     "ipFamilies":["IPv4"],"ipFamilyPolicy":"SingleStack","internalTrafficPolicy":"Cluster",
                     "loadBalancerSourceRanges":null},
             "status":{"loadBalancer":{}}}
            """;

    private static final String SLICE = """
            {"kind":"EndpointSlice","apiVersion":"discovery.k8s.io/v1",
             "metadata":{"name":"web-abc","namespace":"demo","resourceVersion":"813",
               "labels":{"kubernetes.io/service-name":"web","endpointslice.kubernetes.io/managed-by":"c"},
               "ownerReferences":[{"apiVersion":"v1","kind":"Service","name":"web","uid":"0b6c","controller":true}]},
             "addressType":"IPv4",
             "endpoints":[{"addresses":["10.244.1.5"],"conditions":{"ready":true,"serving":true,"terminating":false},
                           "nodeName":"node-a","zone":"z1","hints":{"forZones":[{"name":"z1"}]}},
                          {"addresses":["10.244.2.7"],"conditions":{"ready":false},"targetRef":{"kind":"Pod","name":"p"}}],
             "ports":[{"name":"http","protocol":"TCP","port":8080,"appProtocol":"http"}]}
            """;

    /** Go writes an empty slice without omitempty as null: an EndpointSlice with no endpoints. */
    private static final String EMPTY_SLICE = """
            {"metadata":{"name":"idle-x","namespace":"demo","resourceVersion":"9"},"addressType":"IPv4",
             "endpoints":null,"ports":null}
            """;

    private static final String NODE = """
            {"metadata":{"name":"node-a","resourceVersion":"77","labels":{"topology.kubernetes.io/zone":"z1"}},
             "spec":{"podCIDR":"10.244.1.0/24","podCIDRs":["10.244.1.0/24"],"providerID":"kind://x"},
             "status":{"addresses":[{"type":"InternalIP","address":"192.0.2.10"},{"type":"Hostname","address":"node-a"}],
                       "capacity":{"cpu":"2","memory":"8Gi"},"conditions":[{"type":"Ready","status":"True"}]}}
            """;

    @Test
    void equalsTheTypedModelsRoundTripForServicesSlicesAndNodes() throws Exception {
        assertSameAsTyped(SERVICE, Service.class, RawService.class);
        assertSameAsTyped(SLICE, EndpointSlice.class, RawEndpointSlice.class);
        assertSameAsTyped(EMPTY_SLICE, EndpointSlice.class, RawEndpointSlice.class);
        assertSameAsTyped(NODE, Node.class, RawNode.class);
    }

    private static void assertSameAsTyped(String json, Class<? extends HasMetadata> typed, Class<? extends RawObject> raw) {
        HasMetadata model = SERIALIZATION.unmarshal(json, typed);
        Json.Obj before = JsonTrees.toObject(SERIALIZATION.convertValue(model, JsonNode.class));
        RawObject object = SERIALIZATION.unmarshal(json, raw);

        assertThat(object.json()).isEqualTo(before);
        assertThat(ObjectFingerprint.of(object.json())).isEqualTo(ObjectFingerprint.of(before));
        assertThat(object.getMetadata().getName()).isEqualTo(model.getMetadata().getName());
        assertThat(object.getMetadata().getNamespace()).isEqualTo(model.getMetadata().getNamespace());
        assertThat(object.getMetadata().getResourceVersion()).isEqualTo(model.getMetadata().getResourceVersion());
    }

    @Test
    void watchEventsConvertedFromTheTypedModelEqualTheListsObjects() {
        // fabric8 decodes watch events into its typed model and converts them to the informer's class.
        Service typed = SERIALIZATION.unmarshal(SERVICE, Service.class);
        RawService fromWatch = SERIALIZATION.convertValue(typed, RawService.class);
        RawService fromList = SERIALIZATION.unmarshal(SERVICE, RawService.class);
        assertThat(fromWatch.json()).isEqualTo(fromList.json());
    }

    @Test
    void listItemsGetTheClassesTypeMetaAndKeepTheServersKeyOrder() {
        Json.Obj tree = SERIALIZATION.unmarshal(SERVICE, RawService.class).json();
        assertThat(List.copyOf(tree.fields().keySet())).containsExactly("apiVersion", "kind", "metadata", "spec", "status");
        assertThat(tree.string("apiVersion")).contains("v1");
        assertThat(tree.string("kind")).contains("Service");
        assertThat(List.copyOf(tree.object("metadata").fields().keySet())).startsWith("name", "namespace", "uid");
        assertThat(SERIALIZATION.unmarshal(SLICE, RawEndpointSlice.class).json().string("apiVersion")).contains("discovery.k8s.io/v1");
    }

    @Test
    void readsEveryKindOfValue() throws Exception {
        Json.Obj obj = read("""
                {"z":1,"a":"text","m":[true,false,null],"n":{"port":8080,"ratio":0.5,"big":12345678901234567890,
                 "long":9007199254740993,"gone":null,"none":[],"empty":{}}}
                """);
        assertThat(List.copyOf(obj.fields().keySet())).containsExactly("z", "a", "m", "n");
        assertThat(obj.fields().get("z")).isEqualTo(new Json.Int(1));
        assertThat(obj.fields().get("a")).isEqualTo(new Json.Str("text"));
        assertThat(obj.array("m")).as("nulls inside arrays stay").containsExactly(Json.Bool.TRUE, Json.Bool.FALSE, Json.Null.INSTANCE);
        Json.Obj n = obj.object("n");
        assertThat(n.fields().get("port")).isEqualTo(new Json.Int(8080));
        assertThat(n.fields().get("ratio")).isEqualTo(new Json.Dec(0.5));
        assertThat(n.fields().get("big")).isEqualTo(new Json.Dec(12345678901234567890.0));
        assertThat(n.fields().get("long")).isEqualTo(new Json.Int(9007199254740993L));
        assertThat(List.copyOf(n.fields().keySet())).containsExactly("port", "ratio", "big", "long", "empty");
        assertThat(n.object("empty").size()).isZero();
    }

    @Test
    void aRepeatedKeyKeepsItsLastValueAsJacksonDoes() throws Exception {
        Json.Obj obj = read("{\"a\":1,\"b\":2,\"a\":3}");
        assertThat(obj.fields()).isEqualTo(Map.of("a", new Json.Int(3), "b", new Json.Int(2)));
    }

    @Test
    void anObjectRebuiltFromTheStoreCarriesOnlyItsKeyAndVersion() {
        RawService object = SERIALIZATION.unmarshal(SERVICE, RawService.class);
        ObjectMeta meta = new ObjectMeta();
        meta.setNamespace("demo");
        meta.setName("web");
        meta.setResourceVersion("812");
        object.setMetadata(meta);
        assertThat(object.json()).isEqualTo(new Json.Obj(Map.of("metadata", new Json.Obj(Map.of(
                "namespace", new Json.Str("demo"), "name", new Json.Str("web"), "resourceVersion", new Json.Str("812"))))));
        assertThat(new RawNode().json()).isEqualTo(new Json.Obj(Map.of("metadata", Json.Obj.EMPTY)));
    }

    @Test
    void refusesWhatIsNotAnObject() {
        assertThatThrownBy(() -> SERIALIZATION.unmarshal("[1]", RawService.class))
                .hasStackTraceContaining("expected a JSON object for RawService");
        assertThatThrownBy(() -> read("{\"a\":")).isInstanceOf(Exception.class);
        assertThatThrownBy(() -> read("")).hasMessageContaining("no JSON value");
    }

    private static Json.Obj read(String json) throws Exception {
        try (JsonParser p = new ObjectMapper().createParser(json)) {
            return (Json.Obj) RawJson.read(p);
        }
    }
}
