package io.kproxy.testkit;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@code discovery.k8s.io/v1} EndpointSlice as the EndpointSlice controller writes it:
 * labelled with {@code kubernetes.io/service-name}, address type IPv4 unless told otherwise.
 * Each {@link #endpoint} starts a new endpoint; the condition and topology setters that follow
 * apply to it. Not thread-safe.
 *
 * <pre>{@code
 * EndpointSliceFixture.slice("ns1", "svc1-abc", "svc1").port("p80", 80, "TCP")
 *     .endpoint("10.180.0.1").node("test-node").endpoint("10.180.0.2").ready(false).serving(true).terminating(true)
 *     .build();
 * }</pre>
 */
public final class EndpointSliceFixture {

    private final String namespace;
    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private String resourceVersion = "1";
    private String addressType = "IPv4";
    private final List<Json> ports = new ArrayList<>();
    private final List<EndpointDraft> endpoints = new ArrayList<>();

    private static final class EndpointDraft {
        final List<String> addresses = new ArrayList<>();
        Boolean ready;
        Boolean serving;
        Boolean terminating;
        String nodeName;
        String zone;
        final List<String> zoneHints = new ArrayList<>();
        final List<String> nodeHints = new ArrayList<>();
    }

    private EndpointSliceFixture(String namespace, String name, String serviceName) {
        this.namespace = namespace;
        this.name = name;
        if (serviceName != null) {
            labels.put("kubernetes.io/service-name", serviceName);
        }
        labels.put("endpointslice.kubernetes.io/managed-by", "endpointslice-controller.k8s.io");
    }

    /** A slice for {@code serviceName}. */
    public static EndpointSliceFixture slice(String namespace, String name, String serviceName) {
        return new EndpointSliceFixture(namespace, name, serviceName);
    }

    /** A slice without the {@code kubernetes.io/service-name} label (kube-proxy ignores it). */
    public static EndpointSliceFixture unlabelled(String namespace, String name) {
        return new EndpointSliceFixture(namespace, name, null);
    }

    public EndpointSliceRef ref() {
        return new EndpointSliceRef(namespace, name);
    }

    public EndpointSliceFixture resourceVersion(String rv) {
        this.resourceVersion = rv;
        return this;
    }

    /** {@code IPv4}, {@code IPv6} or {@code FQDN}. */
    public EndpointSliceFixture addressType(String type) {
        this.addressType = type;
        return this;
    }

    public EndpointSliceFixture label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    public EndpointSliceFixture annotation(String key, String value) {
        annotations.put(key, value);
        return this;
    }

    /** The {@code endpoints.kubernetes.io/last-change-trigger-time} annotation (RFC 3339). */
    public EndpointSliceFixture triggerTime(String rfc3339) {
        return annotation("endpoints.kubernetes.io/last-change-trigger-time", rfc3339);
    }

    /** A port; an empty name is written as {@code name: ""} like the controller does. */
    public EndpointSliceFixture port(String portName, int port, String protocol) {
        ports.add(Json.obj("name", Json.of(portName), "port", Json.of(port), "protocol", Json.of(protocol)));
        return this;
    }

    /** A raw port object, for malformed-input tests (nil name, nil port, ...). */
    public EndpointSliceFixture rawPort(Json.Obj port) {
        ports.add(port);
        return this;
    }

    /** Starts an endpoint with these addresses (normally one). */
    public EndpointSliceFixture endpoint(String... addresses) {
        EndpointDraft d = new EndpointDraft();
        d.addresses.addAll(List.of(addresses));
        endpoints.add(d);
        return this;
    }

    public EndpointSliceFixture ready(boolean ready) {
        last().ready = ready;
        return this;
    }

    public EndpointSliceFixture serving(boolean serving) {
        last().serving = serving;
        return this;
    }

    public EndpointSliceFixture terminating(boolean terminating) {
        last().terminating = terminating;
        return this;
    }

    public EndpointSliceFixture node(String nodeName) {
        last().nodeName = nodeName;
        return this;
    }

    public EndpointSliceFixture zone(String zone) {
        last().zone = zone;
        return this;
    }

    public EndpointSliceFixture zoneHints(String... zones) {
        last().zoneHints.addAll(List.of(zones));
        return this;
    }

    public EndpointSliceFixture nodeHints(String... nodes) {
        last().nodeHints.addAll(List.of(nodes));
        return this;
    }

    private EndpointDraft last() {
        if (endpoints.isEmpty()) {
            throw new IllegalStateException("call endpoint(...) first");
        }
        return endpoints.getLast();
    }

    public Json.Obj build() {
        List<Json> eps = new ArrayList<>();
        for (EndpointDraft d : endpoints) {
            LinkedHashMap<String, Json> e = new LinkedHashMap<>();
            e.put("addresses", Fixtures.strings(d.addresses));
            LinkedHashMap<String, Json> cond = new LinkedHashMap<>();
            if (d.ready != null) {
                cond.put("ready", Json.of(d.ready));
            }
            if (d.serving != null) {
                cond.put("serving", Json.of(d.serving));
            }
            if (d.terminating != null) {
                cond.put("terminating", Json.of(d.terminating));
            }
            e.put("conditions", new Json.Obj(cond));
            if (d.nodeName != null) {
                e.put("nodeName", Json.of(d.nodeName));
            }
            if (d.zone != null) {
                e.put("zone", Json.of(d.zone));
            }
            if (!d.zoneHints.isEmpty() || !d.nodeHints.isEmpty()) {
                LinkedHashMap<String, Json> hints = new LinkedHashMap<>();
                if (!d.zoneHints.isEmpty()) {
                    hints.put("forZones", Json.arr(d.zoneHints.stream().map(z -> (Json) Json.obj("name", Json.of(z))).toList()));
                }
                if (!d.nodeHints.isEmpty()) {
                    hints.put("forNodes", Json.arr(d.nodeHints.stream().map(n -> (Json) Json.obj("name", Json.of(n))).toList()));
                }
                e.put("hints", new Json.Obj(hints));
            }
            eps.add(new Json.Obj(e));
        }
        return Json.obj(
                "apiVersion", Json.of("discovery.k8s.io/v1"),
                "kind", Json.of("EndpointSlice"),
                "metadata", Fixtures.metadata(namespace, name, resourceVersion, labels, annotations),
                "addressType", Json.of(addressType),
                "endpoints", Json.arr(eps),
                "ports", Json.arr(ports));
    }

    public EndpointSliceObserved observed() {
        return new EndpointSliceObserved(ref(), resourceVersion, build());
    }
}
