package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.kproxy.events.ResourceKind;
import io.kproxy.model.NodeName;
import io.kproxy.source.kube.internal.RawObject.RawEndpointSlice;
import io.kproxy.source.kube.internal.RawObject.RawNode;
import io.kproxy.source.kube.internal.RawObject.RawService;
import io.kproxy.source.kube.internal.RawObject.RawServiceCidr;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Which objects of one kind the source watches, as a fabric8 informable over the kind's
 * {@link RawObject} class (JSON trees, not fabric8's typed model). Immutable.
 *
 * @param kind       the kind recorded in events
 * @param informable the filtered resource to inform on (or to watch from a resourceVersion), for a client
 * @param empty      a new, empty object of the kind (what the informer's reduced store hands back)
 * @param whenAbsent "" for a kind every API server serves; for one it may not serve (it answers
 *                   404), what the node does instead, for the log line that says so once. An
 *                   absent kind never holds {@code KubeSource#synced()} back; its informer keeps
 *                   retrying and records the kind once the API server serves it.
 */
public record KindSpec<T extends RawObject>(ResourceKind kind, Function<KubernetesClient, FilterWatchListDeletable<T, ?, ?>> informable,
        Supplier<T> empty, String whenAbsent) {

    public KindSpec {
        if (kind == null || informable == null || empty == null || whenAbsent == null) {
            throw new IllegalArgumentException("kind, informable, empty and whenAbsent are required");
        }
    }

    /** Whether the API server may not serve this kind (see {@code whenAbsent}). */
    public boolean optional() {
        return !whenAbsent.isEmpty();
    }

    /** Upstream's label: an object for another proxy implementation. */
    public static final String SERVICE_PROXY_NAME = "service.kubernetes.io/service-proxy-name";
    /** Upstream's label: a headless Service (and its slices). */
    public static final String HEADLESS = "service.kubernetes.io/headless";

    /**
     * Services without either label: {@code !service.kubernetes.io/service-proxy-name,
     * !service.kubernetes.io/headless}, the selector of {@code cmd/kube-proxy/app/server.go}
     * (any value of service-proxy-name hides the object).
     */
    public static KindSpec<RawService> services() {
        return new KindSpec<>(ResourceKind.SERVICE,
                c -> c.resources(RawService.class).inAnyNamespace().withoutLabel(SERVICE_PROXY_NAME).withoutLabel(HEADLESS),
                RawService::new, "");
    }

    /** {@code discovery.k8s.io/v1} EndpointSlices, with the same selector as Services. */
    public static KindSpec<RawEndpointSlice> endpointSlices() {
        return new KindSpec<>(ResourceKind.ENDPOINT_SLICE,
                c -> c.resources(RawEndpointSlice.class).inAnyNamespace().withoutLabel(SERVICE_PROXY_NAME).withoutLabel(HEADLESS),
                RawEndpointSlice::new, "");
    }

    /**
     * This node's Node only, by field selector {@code metadata.name=<node>}: upstream's node
     * informer in {@code cmd/kube-proxy/app/server.go} ({@code fields.OneTermEqualSelector}).
     */
    public static KindSpec<RawNode> node(NodeName node) {
        return new KindSpec<>(ResourceKind.NODE, c -> c.resources(RawNode.class).withField("metadata.name", node.value()), RawNode::new,
                "");
    }

    /** Every Node: the cluster recorder's informer (docs/kafka.md); a node agent watches only its own. */
    public static KindSpec<RawNode> nodes() {
        return new KindSpec<>(ResourceKind.NODE, c -> c.resources(RawNode.class), RawNode::new, "");
    }

    /**
     * Every {@code networking.k8s.io/v1} ServiceCIDR: the service ranges, which upstream's
     * nftables mode learns from them ({@code pkg/proxy/config/config.go} ServiceCIDRConfig, no
     * selector). API servers before Kubernetes 1.33 (or with the MultiCIDRServiceAllocator
     * feature off) do not serve them; the node then keeps its configured ranges.
     */
    public static KindSpec<RawServiceCidr> serviceCidrs() {
        return new KindSpec<>(ResourceKind.SERVICE_CIDR, c -> c.resources(RawServiceCidr.class), RawServiceCidr::new,
                "the configured kproxy.serviceCIDRs stay the service ranges");
    }
}
