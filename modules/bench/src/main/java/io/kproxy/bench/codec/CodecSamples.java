package io.kproxy.bench.codec;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.ServiceObserved;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import io.kproxy.model.ServiceRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The records the codec benchmark encodes and decodes: an EndpointSlice observation as the
 * EndpointSlice controller writes one for a five-pod Deployment (conditions, nodeName, zone,
 * targetRef, labels, an annotation, an owner reference; about 1 KB encoded), and a dual-port
 * ClusterIP Service observation. Immutable; built once.
 */
final class CodecSamples {

    static final Instant AT = Instant.parse("2026-03-01T12:00:06.123456789Z");

    private CodecSamples() {
    }

    static Envelope slice() {
        List<Json> eps = new ArrayList<>();
        String[][] rows = {
                {"10.180.0.1", "true", "true", "false", "worker-1", "zone-a", "web-5d4f8-abcde"},
                {"10.180.0.2", "true", "true", "false", "worker-1", "zone-a", "web-5d4f8-fghij"},
                {"10.180.1.3", "true", "true", "false", "worker-2", "zone-b", "web-5d4f8-klmno"},
                {"10.180.2.4", "false", "true", "true", "worker-3", "zone-c", "web-5d4f8-pqrst"},
                {"10.180.2.5", "false", "false", "false", "worker-3", "zone-c", "web-5d4f8-uvwxy"}};
        int n = 0;
        for (String[] r : rows) {
            eps.add(Json.obj("addresses", Json.arr(Json.of(r[0])),
                    "conditions", Json.obj("ready", Json.of(Boolean.parseBoolean(r[1])), "serving", Json.of(Boolean.parseBoolean(r[2])),
                            "terminating", Json.of(Boolean.parseBoolean(r[3]))),
                    "nodeName", Json.of(r[4]), "zone", Json.of(r[5]),
                    "targetRef", Json.obj("kind", Json.of("Pod"), "namespace", Json.of("default"), "name", Json.of(r[6]),
                            "uid", Json.of("0b6a9a1e-" + (1000 + n++) + "-4c1d-8a2e-3f5c6d7e8f90"))));
        }
        Json.Obj object = Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", Json.obj("name", Json.of("web-7xk2p"), "namespace", Json.of("default"),
                        "uid", Json.of("6c1e4a2b-e48e-4f00-9d6e-0242ac120002"), "resourceVersion", Json.of("1050"),
                        "generation", Json.of(7), "creationTimestamp", Json.of("2026-02-27T08:15:00Z"),
                        "labels", Json.obj("kubernetes.io/service-name", Json.of("web"),
                                "endpointslice.kubernetes.io/managed-by", Json.of("endpointslice-controller.k8s.io"), "app", Json.of("web")),
                        "annotations", Json.obj("endpoints.kubernetes.io/last-change-trigger-time", Json.of("2026-03-01T11:59:58Z")),
                        "ownerReferences", Json.arr(Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"), "name", Json.of("web"),
                                "uid", Json.of("6c1e4a2b-1f2e-4f00-9d6e-0242ac120002"), "controller", Json.of(true),
                                "blockOwnerDeletion", Json.of(true)))),
                "addressType", Json.of("IPv4"),
                "endpoints", Json.arr(eps),
                "ports", Json.arr(Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port", Json.of(8080)),
                        Json.obj("name", Json.of("https"), "protocol", Json.of("TCP"), "port", Json.of(8443))));
        return new Envelope(0, AT, "source/kube", new EndpointSliceObserved(new EndpointSliceRef("default", "web-7xk2p"), "1050", object));
    }

    static Envelope service() {
        Json.Obj object = Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"),
                "metadata", Json.obj("name", Json.of("web"), "namespace", Json.of("default"), "uid", Json.of("6c1e4a2b-1f2e-4f00-9d6e-0242ac120002"),
                        "resourceVersion", Json.of("1042"), "creationTimestamp", Json.of("2026-02-27T08:15:00Z"),
                        "labels", Json.obj("app", Json.of("web"), "app.kubernetes.io/name", Json.of("web"))),
                "spec", Json.obj("type", Json.of("ClusterIP"), "clusterIP", Json.of("172.30.0.41"), "clusterIPs", Json.arr(Json.of("172.30.0.41")),
                        "ipFamilies", Json.arr(Json.of("IPv4")), "ipFamilyPolicy", Json.of("SingleStack"),
                        "selector", Json.obj("app", Json.of("web")),
                        "ports", Json.arr(
                                Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port", Json.of(80), "targetPort", Json.of(8080)),
                                Json.obj("name", Json.of("https"), "protocol", Json.of("TCP"), "port", Json.of(443), "targetPort", Json.of(8443))),
                        "sessionAffinity", Json.of("None"), "internalTrafficPolicy", Json.of("Cluster")),
                "status", Json.obj("loadBalancer", Json.Obj.EMPTY));
        return new Envelope(0, AT, "source/kube", new ServiceObserved(new ServiceRef("default", "web"), "1042", object));
    }
}
