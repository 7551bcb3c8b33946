package io.kproxy.bench.history;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ServiceObserved;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A large cluster that keeps changing, for the time-travel benchmark: {@code services} Services in
 * 100 namespaces, each with {@code endpoints} pods on 50 nodes (three zones) and one EndpointSlice,
 * objects shaped as the API server sends them (uid, resourceVersion, labels, targetRef, zone,
 * conditions). {@link #churn} draws the next change the way a busy cluster makes them: pods
 * replaced by rollouts or rescheduling (new IP, node and name), endpoints turning not ready or
 * terminating and back, and now and then a Service edit (an annotation, a session-affinity switch
 * or a second port). Deterministic for a seed. Not thread-safe.
 */
final class ChurnCluster {

    static final String NODE = "node-00";
    private static final int NODES = 50;

    private final int services;
    private final SplittableRandom rnd;
    private final Svc[] svcs;
    private final int[] podsPerNode = new int[NODES];
    private long resourceVersion = 1000;
    private long podSerial;

    /** One endpoint's pod and its conditions. */
    private record Pod(String name, String ip, int node, boolean ready, boolean serving, boolean terminating) {
        Pod withConditions(boolean r, boolean s, boolean t) {
            return new Pod(name, ip, node, r, s, t);
        }
    }

    /** A Service's mutable simulation state (the emitted objects are immutable Json trees). */
    private static final class Svc {
        final ServiceRef ref;
        final String clusterIP;
        final boolean nodePort;
        final List<Pod> pods = new ArrayList<>();
        int edits;
        boolean clientIP;
        boolean metricsPort;

        Svc(ServiceRef ref, String clusterIP, boolean nodePort) {
            this.ref = ref;
            this.clusterIP = clusterIP;
            this.nodePort = nodePort;
        }
    }

    ChurnCluster(int services, int endpoints, long seed) {
        if (services < 1 || services > 60_000 || endpoints < 1) {
            throw new IllegalArgumentException("services in 1..60000, endpoints >= 1");
        }
        this.services = services;
        this.rnd = new SplittableRandom(seed);
        this.svcs = new Svc[services];
        for (int i = 0; i < services; i++) {
            Svc s = new Svc(new ServiceRef("ns-" + (i % 100), "svc-" + i), "172.30." + (i / 250) + "." + (i % 250 + 1), i % 25 == 0);
            s.metricsPort = i % 10 == 0;
            for (int k = 0; k < endpoints; k++) {
                s.pods.add(newPod(s, true));
            }
            svcs[i] = s;
        }
    }

    int services() {
        return services;
    }

    /** The Service {@code i} as it stands. */
    ServiceObserved service(int i) {
        Svc s = svcs[i];
        String rv = Long.toString(++resourceVersion);
        List<Json> ports = new ArrayList<>();
        ports.add(port("http", 80, 8080, s.nodePort ? 30000 + svcIndex(s) / 25 % 2768 : 0));
        if (s.metricsPort) {
            ports.add(port("metrics", 9090, 9090, 0));
        }
        LinkedHashMap<String, Json> spec = new LinkedHashMap<>();
        spec.put("type", Json.of(s.nodePort ? "NodePort" : "ClusterIP"));
        spec.put("clusterIP", Json.of(s.clusterIP));
        spec.put("clusterIPs", Json.arr(Json.of(s.clusterIP)));
        spec.put("ipFamilies", Json.arr(Json.of("IPv4")));
        spec.put("ipFamilyPolicy", Json.of("SingleStack"));
        spec.put("ports", Json.arr(ports));
        spec.put("selector", Json.obj("app", Json.of(s.ref.name())));
        spec.put("sessionAffinity", Json.of(s.clientIP ? "ClientIP" : "None"));
        if (s.clientIP) {
            spec.put("sessionAffinityConfig", Json.obj("clientIP", Json.obj("timeoutSeconds", Json.of(10_800))));
        }
        spec.put("internalTrafficPolicy", Json.of("Cluster"));
        if (s.nodePort) {
            spec.put("externalTrafficPolicy", Json.of("Cluster"));
        }
        Json.Obj meta = meta(s.ref.namespace(), s.ref.name(), rv, Json.obj("app", Json.of(s.ref.name())),
                Json.obj("kubernetes.io/change-cause", Json.of("edit " + s.edits)));
        return new ServiceObserved(s.ref, rv, Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"), "metadata", meta,
                "spec", new Json.Obj(spec), "status", Json.obj("loadBalancer", Json.Obj.EMPTY)));
    }

    /** The EndpointSlice of Service {@code i} as it stands. */
    EndpointSliceObserved slice(int i, Instant changedAt) {
        Svc s = svcs[i];
        String rv = Long.toString(++resourceVersion);
        EndpointSliceRef ref = new EndpointSliceRef(s.ref.namespace(), s.ref.name() + "-" + suffix(i));
        List<Json> eps = new ArrayList<>(s.pods.size());
        for (Pod p : s.pods) {
            String zone = "zone-" + (char) ('a' + p.node % 3);
            eps.add(Json.obj("addresses", Json.arr(Json.of(p.ip)), "conditions", Json.obj("ready", Json.of(p.ready), "serving",
                    Json.of(p.serving), "terminating", Json.of(p.terminating)), "nodeName", Json.of(nodeName(p.node)), "zone",
                    Json.of(zone), "targetRef", Json.obj("kind", Json.of("Pod"), "namespace", Json.of(s.ref.namespace()), "name",
                            Json.of(p.name))));
        }
        List<Json> ports = new ArrayList<>();
        ports.add(Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port", Json.of(8080)));
        if (s.metricsPort) {
            ports.add(Json.obj("name", Json.of("metrics"), "protocol", Json.of("TCP"), "port", Json.of(9090)));
        }
        Json.Obj labels = Json.obj("kubernetes.io/service-name", Json.of(s.ref.name()), "endpointslice.kubernetes.io/managed-by",
                Json.of("endpointslice-controller.k8s.io"));
        Json.Obj annotations = Json.obj("endpoints.kubernetes.io/last-change-trigger-time", Json.of(changedAt.toString()));
        return new EndpointSliceObserved(ref, rv, Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", meta(s.ref.namespace(), ref.name(), rv, labels, annotations), "addressType", Json.of("IPv4"), "endpoints",
                Json.arr(eps), "ports", Json.arr(ports)));
    }

    /** This node as the kubelet reports it (a status report every five minutes changes only the heartbeat). */
    NodeObserved node(Instant heartbeat) {
        String rv = Long.toString(++resourceVersion);
        Json.Obj labels = Json.obj("kubernetes.io/hostname", Json.of(NODE), "kubernetes.io/os", Json.of("linux"),
                "topology.kubernetes.io/zone", Json.of("zone-a"));
        Json.Obj object = Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Node"), "metadata", meta("", NODE, rv, labels,
                Json.Obj.EMPTY), "spec", Json.obj("podCIDR", Json.of("10.1.0.0/16"), "podCIDRs", Json.arr(Json.of("10.1.0.0/16"))),
                "status", Json.obj("addresses", Json.arr(Json.obj("type", Json.of("InternalIP"), "address", Json.of("192.168.0.10")),
                        Json.obj("type", Json.of("Hostname"), "address", Json.of(NODE))), "conditions", Json.arr(Json.obj("type",
                                Json.of("Ready"), "status", Json.of("True"), "reason", Json.of("KubeletReady"), "lastHeartbeatTime",
                                Json.of(heartbeat.toString())))));
        return new NodeObserved(new NodeName(NODE), rv, object);
    }

    /**
     * Draws and applies the next change, returning the record the source would append for it:
     * 45% a pod replaced, 45% an endpoint turning not ready (a third of them terminating) or back,
     * 10% a Service edit (every fifth of those switches session affinity or the metrics port).
     */
    ClusterEvent churn(Instant at) {
        int i = rnd.nextInt(services);
        Svc s = svcs[i];
        int roll = rnd.nextInt(100);
        if (roll < 45) {
            int k = rnd.nextInt(s.pods.size());
            s.pods.set(k, newPod(s, true));
            return slice(i, at);
        }
        if (roll < 90) {
            int k = rnd.nextInt(s.pods.size());
            Pod p = s.pods.get(k);
            boolean terminating = rnd.nextInt(3) == 0;
            s.pods.set(k, p.ready() ? p.withConditions(false, terminating, terminating) : p.withConditions(true, true, false));
            return slice(i, at);
        }
        s.edits++;
        if (s.edits % 5 == 0) {
            if (rnd.nextBoolean()) {
                s.clientIP = !s.clientIP;
            } else {
                s.metricsPort = !s.metricsPort;
            }
        }
        return service(i);
    }

    private Pod newPod(Svc s, boolean ready) {
        int node = rnd.nextInt(NODES);
        int n = podsPerNode[node]++;
        // Pod IPs from the node's /16 of the cluster CIDR 10.0.0.0/8, reused only after 65,000 pods on a node.
        String ip = "10." + (node + 1) + "." + (n / 250 % 260) + "." + (n % 250 + 2);
        String name = s.ref.name() + "-" + Long.toString(0x10000000L + podSerial++ * 7919L % 0xEFFFFFFFL, 36);
        return new Pod(name, ip, node, ready, ready, false);
    }

    private int svcIndex(Svc s) {
        return Integer.parseInt(s.ref.name().substring(4));
    }

    private static Json port(String name, int port, int target, int nodePort) {
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        m.put("name", Json.of(name));
        m.put("protocol", Json.of("TCP"));
        m.put("port", Json.of(port));
        m.put("targetPort", Json.of(target));
        if (nodePort > 0) {
            m.put("nodePort", Json.of(nodePort));
        }
        return new Json.Obj(m);
    }

    private static String nodeName(int node) {
        return String.format("node-%02d", node);
    }

    private static String suffix(int i) {
        return Long.toString(36L * 36 * 36 * 36 + i * 104_729L % (36L * 36 * 36 * 36 * 35), 36);
    }

    private static Json.Obj meta(String namespace, String name, String rv, Json.Obj labels, Json.Obj annotations) {
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        m.put("name", Json.of(name));
        if (!namespace.isEmpty()) {
            m.put("namespace", Json.of(namespace));
        }
        m.put("uid", Json.of(uid(namespace + "/" + name)));
        m.put("resourceVersion", Json.of(rv));
        m.put("labels", labels);
        if (annotations.size() > 0) {
            m.put("annotations", annotations);
        }
        return new Json.Obj(m);
    }

    private static String uid(String key) {
        long h = key.hashCode() * 0x9E3779B97F4A7C15L;
        long l = h * 31 + key.length();
        String hex = String.format("%016x%016x", h, l);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" + hex.substring(16, 20) + "-"
                + hex.substring(20, 32);
    }
}
