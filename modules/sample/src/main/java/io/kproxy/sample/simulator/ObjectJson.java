package io.kproxy.sample.simulator;

import io.kproxy.model.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The API objects of the sample cluster as the API server sends them (Service {@code v1},
 * EndpointSlice {@code discovery.k8s.io/v1} as the EndpointSlice controller writes it, Node
 * {@code v1}), built from the generator's model. Pure; field order as {@code kubectl get -o json}
 * prints them, so that the recorded objects look like real ones.
 */
final class ObjectJson {

    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
    static final String MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
    static final String TRIGGER_TIME = "endpoints.kubernetes.io/last-change-trigger-time";

    private ObjectJson() {
    }

    static Json.Obj service(Workload w, long resourceVersion) {
        ServiceDef d = w.def();
        LinkedHashMap<String, Json> spec = new LinkedHashMap<>();
        List<Json> ports = new ArrayList<>();
        for (ServiceDef.PortDef p : d.ports()) {
            LinkedHashMap<String, Json> port = new LinkedHashMap<>();
            if (!p.name().isEmpty()) {
                port.put("name", Json.of(p.name()));
            }
            port.put("protocol", Json.of(p.protocol()));
            port.put("port", Json.of(p.port()));
            port.put("targetPort", Json.of(p.targetPort()));
            if (p.nodePort() != 0) {
                port.put("nodePort", Json.of(p.nodePort()));
            }
            ports.add(new Json.Obj(port));
        }
        spec.put("ports", Json.arr(ports));
        spec.put("selector", Json.obj("app", Json.of(d.name())));
        if (d.headless()) {
            spec.put("clusterIP", Json.of("None"));
            spec.put("clusterIPs", Json.arr(Json.of("None")));
        } else {
            spec.put("clusterIP", Json.of(d.clusterIPv4()));
            spec.put("clusterIPs", d.clusterIPv6().isEmpty() ? Json.arr(Json.of(d.clusterIPv4()))
                    : Json.arr(Json.of(d.clusterIPv4()), Json.of(d.clusterIPv6())));
        }
        spec.put("type", Json.of(d.type()));
        spec.put("sessionAffinity", Json.of(d.affinitySeconds() > 0 ? "ClientIP" : "None"));
        if (d.affinitySeconds() > 0) {
            spec.put("sessionAffinityConfig", Json.obj("clientIP", Json.obj("timeoutSeconds", Json.of(d.affinitySeconds()))));
        }
        if (d.externallyReachable()) {
            spec.put("externalTrafficPolicy", Json.of(d.externalLocal() ? "Local" : "Cluster"));
        }
        if (d.healthCheckNodePort() != 0) {
            spec.put("healthCheckNodePort", Json.of(d.healthCheckNodePort()));
        }
        spec.put("ipFamilies", d.dualStack() ? Json.arr(Json.of("IPv4"), Json.of("IPv6")) : Json.arr(Json.of("IPv4")));
        spec.put("ipFamilyPolicy", Json.of(d.dualStack() ? "PreferDualStack" : "SingleStack"));
        spec.put("internalTrafficPolicy", Json.of("Cluster"));
        Json.Obj status = d.loadBalancerIP().isEmpty() ? Json.obj("loadBalancer", Json.Obj.EMPTY)
                : Json.obj("loadBalancer", Json.obj("ingress", Json.arr(Json.obj("ip", Json.of(d.loadBalancerIP()), "ipMode", Json.of("VIP")))));
        return Json.obj(
                "apiVersion", Json.of("v1"),
                "kind", Json.of("Service"),
                "metadata", metadata(d.namespace(), d.name(), resourceVersion, Json.obj("app", Json.of(d.name())), Json.Obj.EMPTY),
                "spec", new Json.Obj(spec),
                "status", status);
    }

    /** The slice of {@code family} ({@code IPv4} or {@code IPv6}) holding every pod of the workload. */
    static Json.Obj slice(Workload w, String sliceName, String family, long resourceVersion, Instant changedAt) {
        ServiceDef d = w.def();
        List<Json> endpoints = new ArrayList<>();
        for (Pod p : w.pods()) {
            String address = family.equals("IPv6") ? p.ipv6() : p.ipv4();
            endpoints.add(Json.obj(
                    "addresses", Json.arr(Json.of(address)),
                    "conditions", Json.obj("ready", Json.of(p.ready()), "serving", Json.of(p.serving()), "terminating",
                            Json.of(p.terminating())),
                    "nodeName", Json.of(p.node()),
                    "zone", Json.of(ClusterModel.zoneOf(p.node())),
                    "targetRef", Json.obj("kind", Json.of("Pod"), "namespace", Json.of(d.namespace()), "name", Json.of(p.name()))));
        }
        List<Json> ports = new ArrayList<>();
        for (ServiceDef.PortDef p : d.ports()) {
            ports.add(Json.obj("name", Json.of(p.name()), "protocol", Json.of(p.protocol()), "port", Json.of(p.targetPort())));
        }
        Json.Obj labels = Json.obj(SERVICE_NAME_LABEL, Json.of(d.name()), MANAGED_BY_LABEL, Json.of("endpointslice-controller.k8s.io"));
        Json.Obj annotations = Json.obj(TRIGGER_TIME, Json.of(changedAt.toString()));
        return Json.obj(
                "apiVersion", Json.of("discovery.k8s.io/v1"),
                "kind", Json.of("EndpointSlice"),
                "metadata", metadata(d.namespace(), sliceName, resourceVersion, labels, annotations),
                "addressType", Json.of(family),
                "endpoints", Json.arr(endpoints),
                "ports", Json.arr(ports));
    }

    static Json.Obj node(String name, String ipv4, String ipv6, String podCIDRv4, String podCIDRv6, long resourceVersion, Instant heartbeat) {
        Json.Obj labels = Json.obj("kubernetes.io/hostname", Json.of(name), "kubernetes.io/os", Json.of("linux"),
                "topology.kubernetes.io/zone", Json.of(ClusterModel.zoneOf(name)));
        return Json.obj(
                "apiVersion", Json.of("v1"),
                "kind", Json.of("Node"),
                "metadata", metadata("", name, resourceVersion, labels, Json.Obj.EMPTY),
                "spec", Json.obj("podCIDR", Json.of(podCIDRv4), "podCIDRs", Json.arr(Json.of(podCIDRv4), Json.of(podCIDRv6))),
                "status", Json.obj(
                        "addresses", Json.arr(
                                Json.obj("type", Json.of("InternalIP"), "address", Json.of(ipv4)),
                                Json.obj("type", Json.of("InternalIP"), "address", Json.of(ipv6)),
                                Json.obj("type", Json.of("Hostname"), "address", Json.of(name))),
                        "conditions", Json.arr(Json.obj("type", Json.of("Ready"), "status", Json.of("True"), "reason",
                                Json.of("KubeletReady"), "lastHeartbeatTime", Json.of(heartbeat.toString())))));
    }

    private static Json.Obj metadata(String namespace, String name, long resourceVersion, Json.Obj labels, Json.Obj annotations) {
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        m.put("name", Json.of(name));
        if (!namespace.isEmpty()) {
            m.put("namespace", Json.of(namespace));
        }
        m.put("uid", Json.of(uid(namespace + "/" + name)));
        m.put("resourceVersion", Json.of(Long.toString(resourceVersion)));
        if (labels.size() > 0) {
            m.put("labels", labels);
        }
        if (annotations.size() > 0) {
            m.put("annotations", annotations);
        }
        return new Json.Obj(m);
    }

    /** A stable, UUID-shaped uid derived from the key (an object keeps its uid across updates). */
    static String uid(String key) {
        long h = 0xcbf29ce484222325L;
        long l = 0x84222325cbf29ce4L;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001b3L;
            l = (l ^ key.charAt(i)) * 0x9E3779B97F4A7C15L + 1;
        }
        String hex = String.format("%016x%016x", h, l);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20) + "-"
                + hex.substring(20, 32);
    }
}
