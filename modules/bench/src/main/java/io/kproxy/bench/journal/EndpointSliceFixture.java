package io.kproxy.bench.journal;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Realistic EndpointSlice observations, as the API server sends them for a Deployment behind a
 * Service ({@code discovery.k8s.io/v1}, managed by the endpointslice controller): five endpoints
 * with addresses, conditions, nodeName, zone and targetRef, owner reference, labels, the
 * last-change-trigger-time annotation and one named port. About 2.3 KB as compact JSON, about
 * 1.1 KB as the journal stores it (the codec writes known keys as one byte). Deterministic for a given seed. Not thread-safe (one per benchmark state).
 */
public final class EndpointSliceFixture {

    private static final String[] ZONES = {"eu-west-1a", "eu-west-1b", "eu-west-1c"};
    private static final String[] APPS = {"checkout-api", "payments-gateway", "catalog-search", "user-profile", "cart-service",
            "inventory-sync", "recommendations", "notifications"};

    private final Random rnd;

    public EndpointSliceFixture(long seed) {
        this.rnd = new Random(seed);
    }

    /** The {@code version}-th observation of slice {@code slice} (same name, new addresses and resourceVersion). */
    public EndpointSliceObserved observation(int slice, long version) {
        String app = APPS[slice % APPS.length] + (slice >= APPS.length ? "-" + slice / APPS.length : "");
        String ns = "shop-" + (slice % 5 == 0 ? "prod" : "team" + slice % 7);
        String name = app + "-" + suffix(5);
        String rv = Long.toString(48_213_577L + version * 13 + slice);
        List<Json> endpoints = new ArrayList<>();
        for (int e = 0; e < 5; e++) {
            String zone = ZONES[(slice + e) % ZONES.length];
            String ip = "10.244." + rnd.nextInt(64) + "." + (2 + rnd.nextInt(250));
            boolean ready = rnd.nextInt(20) != 0;
            endpoints.add(Json.obj(
                    "addresses", Json.arr(Json.of(ip)),
                    "conditions", Json.obj("ready", Json.of(ready), "serving", Json.of(ready), "terminating", Json.of(!ready)),
                    "nodeName", Json.of("ip-10-0-" + rnd.nextInt(8) + "-" + (10 + rnd.nextInt(200)) + ".eu-west-1.compute.internal"),
                    "zone", Json.of(zone),
                    "targetRef", Json.obj("kind", Json.of("Pod"), "namespace", Json.of(ns),
                            "name", Json.of(app + "-6d8f9c7b5d-" + suffix(5)), "uid", Json.of(uid()))));
        }
        Json.Obj object = Json.obj(
                "apiVersion", Json.of("discovery.k8s.io/v1"),
                "kind", Json.of("EndpointSlice"),
                "metadata", Json.obj(
                        "name", Json.of(name),
                        "namespace", Json.of(ns),
                        "uid", Json.of(uid()),
                        "resourceVersion", Json.of(rv),
                        "generation", Json.of(1 + version),
                        "creationTimestamp", Json.of("2025-06-03T09:12:44Z"),
                        "labels", Json.obj(
                                "kubernetes.io/service-name", Json.of(app),
                                "endpointslice.kubernetes.io/managed-by", Json.of("endpointslice-controller.k8s.io"),
                                "app.kubernetes.io/name", Json.of(app)),
                        "annotations", Json.obj("endpoints.kubernetes.io/last-change-trigger-time", Json.of("2025-06-03T09:14:02Z")),
                        "ownerReferences", Json.arr(Json.obj(
                                "apiVersion", Json.of("v1"), "kind", Json.of("Service"), "name", Json.of(app), "uid", Json.of(uid()),
                                "controller", Json.of(true), "blockOwnerDeletion", Json.of(true)))),
                "addressType", Json.of("IPv4"),
                "endpoints", Json.arr(endpoints),
                "ports", Json.arr(Json.obj("name", Json.of("http"), "port", Json.of(8080), "protocol", Json.of("TCP"),
                        "appProtocol", Json.of("http"))));
        return new EndpointSliceObserved(new EndpointSliceRef(ns, name), rv, object);
    }

    private String suffix(int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append("bcdfghjklmnpqrstvwxz2456789".charAt(rnd.nextInt(27)));
        }
        return b.toString();
    }

    private String uid() {
        return new UUID(rnd.nextLong(), rnd.nextLong()).toString();
    }

    /** Compact JSON text of {@code v}: to report how large the observation is on the wire. */
    public static int jsonLength(Json v) {
        return switch (v) {
            case Json.Null n -> 4;
            case Json.Bool(boolean b) -> b ? 4 : 5;
            case Json.Int(long i) -> Long.toString(i).length();
            case Json.Dec(double d) -> Double.toString(d).length();
            case Json.Str(String s) -> s.length() + 2;
            case Json.Arr(List<Json> items) -> 2 + Math.max(0, items.size() - 1) + items.stream().mapToInt(EndpointSliceFixture::jsonLength).sum();
            case Json.Obj(java.util.Map<String, Json> f) -> 2 + Math.max(0, f.size() - 1)
                    + f.entrySet().stream().mapToInt(e -> e.getKey().length() + 3 + jsonLength(e.getValue())).sum();
        };
    }
}
