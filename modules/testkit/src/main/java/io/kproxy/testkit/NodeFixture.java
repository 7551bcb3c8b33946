package io.kproxy.testkit;

import io.kproxy.events.NodeObserved;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a {@code v1} Node object. Not thread-safe. */
public final class NodeFixture {

    private final String name;
    private String resourceVersion = "1";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<Json> addresses = new ArrayList<>();
    private final List<String> podCIDRs = new ArrayList<>();
    private final List<Json> taints = new ArrayList<>();
    private String deletionTimestamp;

    private NodeFixture(String name) {
        this.name = name;
        labels.put("kubernetes.io/hostname", name);
    }

    public static NodeFixture node(String name) {
        return new NodeFixture(name);
    }

    public NodeName ref() {
        return new NodeName(name);
    }

    public NodeFixture resourceVersion(String rv) {
        this.resourceVersion = rv;
        return this;
    }

    public NodeFixture label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    /** Label {@code topology.kubernetes.io/zone}. */
    public NodeFixture zone(String zone) {
        return label("topology.kubernetes.io/zone", zone);
    }

    public NodeFixture internalIP(String ip) {
        addresses.add(Json.obj("type", Json.of("InternalIP"), "address", Json.of(ip)));
        return this;
    }

    public NodeFixture externalIP(String ip) {
        addresses.add(Json.obj("type", Json.of("ExternalIP"), "address", Json.of(ip)));
        return this;
    }

    public NodeFixture podCIDRs(String... cidrs) {
        podCIDRs.addAll(List.of(cidrs));
        return this;
    }

    public NodeFixture taint(String key, String effect) {
        taints.add(Json.obj("key", Json.of(key), "effect", Json.of(effect)));
        return this;
    }

    public NodeFixture deleting(String rfc3339) {
        this.deletionTimestamp = rfc3339;
        return this;
    }

    public Json.Obj build() {
        Json.Obj meta = Fixtures.metadata("", name, resourceVersion, labels, Map.of());
        if (deletionTimestamp != null) {
            meta = meta.with("deletionTimestamp", Json.of(deletionTimestamp));
        }
        LinkedHashMap<String, Json> spec = new LinkedHashMap<>();
        if (!podCIDRs.isEmpty()) {
            spec.put("podCIDR", Json.of(podCIDRs.getFirst()));
            spec.put("podCIDRs", Fixtures.strings(podCIDRs));
        }
        if (!taints.isEmpty()) {
            spec.put("taints", Json.arr(taints));
        }
        return Json.obj(
                "apiVersion", Json.of("v1"),
                "kind", Json.of("Node"),
                "metadata", meta,
                "spec", new Json.Obj(spec),
                "status", Json.obj("addresses", Json.arr(addresses)));
    }

    public NodeObserved observed() {
        return new NodeObserved(ref(), resourceVersion, build());
    }
}
