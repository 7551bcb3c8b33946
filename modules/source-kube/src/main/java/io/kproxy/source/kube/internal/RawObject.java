package io.kproxy.source.kube.internal;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import io.kproxy.model.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An API object as the informers hand it over: its JSON tree, read straight from the response
 * by {@link RawJson} (no fabric8 typed model, no conversion afterwards), and the three metadata
 * fields fabric8's informer reads (namespace, name, {@code resourceVersion}). The source keeps
 * nothing else of an object, so the typed model (Services, EndpointSlices and Nodes as Java beans)
 * would only be a detour: building it and converting it afterwards costs more time than reading
 * the response itself (measured by {@code SourceListCost}; docs/benchmarks.md, "Agent end to
 * end").
 *
 * <p>The subclasses name the API resource the way fabric8's own model classes do
 * ({@code @Group}, {@code @Version}, {@code @Kind}, {@code @Plural}), which is all
 * {@code KubernetesClient.resources(Class)} needs to build the same list and watch requests.
 * Watch events decode to these classes too, since the source's client registers them for their
 * kinds ({@link ClientFactory}); an object fabric8 would still decode into its typed model is
 * converted to the informer's class through Jackson, which again ends in {@link RawJson}.
 *
 * <p>Not thread-safe while being built (Jackson and the informer's store fill it in); handed
 * between threads only through the informer's queues afterwards.
 */
@JsonDeserialize(using = RawJson.Deserializer.class)
public abstract sealed class RawObject implements HasMetadata {

    private ObjectMeta metadata;
    private Json.Obj json;

    RawObject() {
    }

    /** A Service ({@code v1}). */
    @Group("")
    @Version("v1")
    @Kind("Service")
    @Plural("services")
    public static final class RawService extends RawObject implements Namespaced {
    }

    /** An EndpointSlice ({@code discovery.k8s.io/v1}). */
    @Group("discovery.k8s.io")
    @Version("v1")
    @Kind("EndpointSlice")
    @Plural("endpointslices")
    public static final class RawEndpointSlice extends RawObject implements Namespaced {
    }

    /** A Node ({@code v1}, cluster-scoped). */
    @Group("")
    @Version("v1")
    @Kind("Node")
    @Plural("nodes")
    public static final class RawNode extends RawObject {
    }

    /**
     * A ServiceCIDR ({@code networking.k8s.io/v1}, cluster-scoped): the service ranges (KEP-1880).
     * fabric8 7.8 has a typed model for it; the source reads raw trees for every kind alike.
     */
    @Group("networking.k8s.io")
    @Version("v1")
    @Kind("ServiceCIDR")
    @Plural("servicecidrs")
    public static final class RawServiceCidr extends RawObject {
    }

    /** A new, empty object of {@code type}. */
    static RawObject empty(Class<?> type) {
        if (type == RawService.class) {
            return new RawService();
        } else if (type == RawEndpointSlice.class) {
            return new RawEndpointSlice();
        } else if (type == RawNode.class) {
            return new RawNode();
        } else if (type == RawServiceCidr.class) {
            return new RawServiceCidr();
        }
        throw new IllegalArgumentException("not a raw API object type: " + type.getName());
    }

    /** Sets the tree and the metadata fabric8 reads from it. */
    final RawObject withJson(Json.Obj tree) {
        this.json = tree;
        Json.Obj meta = tree.object("metadata");
        ObjectMeta m = new ObjectMeta();
        m.setNamespace(meta.string("namespace").orElse(null));
        m.setName(meta.string("name").orElse(null));
        m.setResourceVersion(meta.string("resourceVersion").orElse(null));
        this.metadata = m;
        return this;
    }

    /**
     * The object's tree; for an object the informer rebuilt from its store (a delete whose final
     * state it did not see), only the namespace, name and {@code resourceVersion} it kept.
     */
    public final Json.Obj json() {
        if (json != null) {
            return json;
        }
        Map<String, Json> meta = new LinkedHashMap<>();
        if (metadata != null) {
            put(meta, "namespace", metadata.getNamespace());
            put(meta, "name", metadata.getName());
            put(meta, "resourceVersion", metadata.getResourceVersion());
        }
        return new Json.Obj(Map.of("metadata", new Json.Obj(meta)));
    }

    private static void put(Map<String, Json> into, String key, String value) {
        if (value != null) {
            into.put(key, new Json.Str(value));
        }
    }

    @Override
    public final ObjectMeta getMetadata() {
        return metadata;
    }

    /** Replaces the metadata, and with it the tree (the informer's store sets metadata only). */
    @Override
    public final void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
        this.json = null;
    }

    /**
     * Ignored: the version is the class's ({@link HasMetadata#getApiVersion()}), and the tree
     * carries the one the server sent.
     */
    @Override
    public final void setApiVersion(String version) {
        // The class fixes the version; see above.
    }
}
