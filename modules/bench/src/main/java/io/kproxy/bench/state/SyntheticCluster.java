package io.kproxy.bench.state;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import io.kproxy.state.FoldedState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A synthetic cluster for the state benchmarks: {@code services} ClusterIP Services in 100
 * namespaces, each with one TCP port and one EndpointSlice of {@code endpoints} ready endpoints
 * spread over 50 nodes (one of them this node). Objects are built as the API server sends them
 * (labels, conditions, zone hints), so the fold parses realistic input.
 */
public final class SyntheticCluster {

    public static final String NODE = "node-0";

    private final int services;
    private final int endpoints;

    public SyntheticCluster(int services, int endpoints) {
        this.services = services;
        this.endpoints = endpoints;
    }

    public static ServiceRef serviceRef(int i) {
        return new ServiceRef("ns-" + (i % 100), "svc-" + i);
    }

    public ServiceObserved service(int i) {
        ServiceRef ref = serviceRef(i);
        Json.Obj meta = Json.obj("name", Json.of(ref.name()), "namespace", Json.of(ref.namespace()), "resourceVersion", Json.of("1"),
                "labels", Json.obj("app", Json.of(ref.name())));
        String ip = "172.16." + (i / 250) + "." + (i % 250 + 1);
        Json.Obj spec = Json.obj("type", Json.of("ClusterIP"), "clusterIP", Json.of(ip), "clusterIPs", Json.arr(Json.of(ip)), "ipFamilies",
                Json.arr(Json.of("IPv4")), "ports", Json.arr(Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port",
                        Json.of(80), "targetPort", Json.of(8080))), "sessionAffinity", Json.of("None"));
        return new ServiceObserved(ref, "1", Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"), "metadata", meta, "spec",
                spec, "status", Json.Obj.EMPTY));
    }

    /** The slice of service {@code i}; {@code variant} makes endpoint {@code variant % endpoints} not ready (0 = all ready). */
    public EndpointSliceObserved slice(int i, int variant) {
        ServiceRef svc = serviceRef(i);
        EndpointSliceRef ref = new EndpointSliceRef(svc.namespace(), svc.name() + "-abcde");
        String rv = Integer.toString(1 + variant);
        Json.Obj meta = Json.obj("name", Json.of(ref.name()), "namespace", Json.of(ref.namespace()), "resourceVersion", Json.of(rv),
                "labels", Json.obj("kubernetes.io/service-name", Json.of(svc.name()), "endpointslice.kubernetes.io/managed-by",
                        Json.of("endpointslice-controller.k8s.io")));
        List<Json> eps = new ArrayList<>(endpoints);
        for (int k = 0; k < endpoints; k++) {
            boolean ready = variant == 0 || k != variant % endpoints;
            int node = (i * endpoints + k) % 50;
            eps.add(Json.obj("addresses", Json.arr(Json.of("10." + (i >> 8 & 255) + "." + (i & 255) + "." + (k + 1))), "conditions",
                    Json.obj("ready", Json.of(ready), "serving", Json.of(ready), "terminating", Json.of(false)), "nodeName",
                    Json.of("node-" + node), "zone", Json.of("zone-" + node % 3), "hints",
                    Json.obj("forZones", Json.arr(Json.obj("name", Json.of("zone-" + node % 3))))));
        }
        return new EndpointSliceObserved(ref, rv, Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", meta, "addressType", Json.of("IPv4"), "endpoints", Json.arr(eps), "ports",
                Json.arr(Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port", Json.of(8080)))));
    }

    /** Folds the whole history, building each record only when it is folded so that no raw object is retained. */
    public FoldedState fold() {
        FoldedState s = FoldedState.initial();
        long offset = 0;
        s = apply(s, offset++, new ConfigRecorded(new NodeName(NODE), Json.obj("mode", Json.of("nftables"), "clusterCIDR",
                Json.of("10.0.0.0/8"))));
        for (int i = 0; i < services; i++) {
            s = apply(s, offset++, service(i));
            s = apply(s, offset++, slice(i, 0));
        }
        s = apply(s, offset++, new SourceSynced(ResourceKind.SERVICE, "1"));
        return apply(s, offset, new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
    }

    private static FoldedState apply(FoldedState s, long offset, ClusterEvent e) {
        return s.apply(new Envelope(offset, Instant.EPOCH, "bench", e)).state();
    }
}
