package io.kproxy.events;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;

/**
 * The records of the v1 corpus, by file name. Used once to write {@code events/corpus/v1/*.bin}
 * (see {@link CorpusGenerator}); after that the {@code .bin} files are the truth and this list
 * only matters for adding new files. Never change an entry whose file exists.
 */
final class CorpusRecords {

    private CorpusRecords() {
    }

    record Entry(String name, Envelope envelope) {
    }

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00.123456789Z");

    static List<Entry> all() {
        List<Entry> out = new ArrayList<>();
        add(out, "service-observed", "source/kube", new ServiceObserved(new ServiceRef("default", "web"), "1042", clusterIpService()));
        add(out, "service-observed", "source/kube", new ServiceObserved(new ServiceRef("shop", "checkout"), "2001", loadBalancerService()));
        add(out, "service-observed", "source/kube", new ServiceObserved(new ServiceRef("odd", "shapes"), "3", oddShapes()));
        add(out, "service-deleted", "source/kube", new ServiceDeleted(new ServiceRef("default", "web"), "1043", false));
        add(out, "service-deleted", "source/kube", new ServiceDeleted(new ServiceRef("shop", "legacy"), "", true));
        add(out, "endpoint-slice-observed", "source/kube",
                new EndpointSliceObserved(new EndpointSliceRef("default", "web-7xk2p"), "1050", endpointSlice()));
        add(out, "endpoint-slice-observed", "source/kube",
                new EndpointSliceObserved(new EndpointSliceRef("shop", "checkout-v6-abcde"), "2002", ipv6TerminatingSlice()));
        add(out, "endpoint-slice-deleted", "source/kube", new EndpointSliceDeleted(new EndpointSliceRef("default", "web-7xk2p"), "1051", false));
        add(out, "node-observed", "source/kube", new NodeObserved(new NodeName("worker-1.example.com"), "880", node()));
        add(out, "node-deleted", "source/kube", new NodeDeleted(new NodeName("worker-1.example.com"), "", true));
        add(out, "source-synced", "source/kube", new SourceSynced(ResourceKind.SERVICE, "1040"));
        add(out, "source-synced", "source/kube", new SourceSynced(ResourceKind.ENDPOINT_SLICE, ""));
        add(out, "source-relisted", "source/kube", new SourceRelisted(ResourceKind.ENDPOINT_SLICE, "5000",
                Set.of("default/web-7xk2p", "default/web-9qq1z", "kube-system/kube-dns-abcde", "kube-system/kube-dns-fghij", "shop/checkout-v6-abcde",
                        "\u00e9t\u00e9/caf\u00e9", "\uD83D\uDE00/a", "\uD83D\uDE01/b")));
        add(out, "source-relisted", "source/kube", new SourceRelisted(ResourceKind.NODE, "", Set.of()));
        add(out, "config-recorded", "engine", new ConfigRecorded(new NodeName("worker-1.example.com"), config()));
        add(out, "sync-applied", "engine", new SyncApplied("nftables", 1, 41, SyncKind.FULL, "sha256:9f86d081884c7d659a2feaa0c55ad015",
                Duration.ofMillis(183)));
        add(out, "sync-applied", "engine", new SyncApplied("iptables", 2, -1, SyncKind.PARTIAL, "sha256:0", Duration.ofNanos(999_999_999)));
        add(out, "sync-failed", "engine", new SyncFailed("nftables", 3, 44, SyncKind.PARTIAL,
                "/dev/stdin:12:1-40: Error: Could not process rule: No such file or directory", true, Duration.ofSeconds(2, 5)));
        add(out, "sync-failed", "engine", new SyncFailed("iptables", 4, 45, SyncKind.FULL, "iptables-restore: l\u00edne 3 f\u00e4iled \u2014 \u65e5\u672c",
                false, Duration.ZERO));
        add(out, "dataplane-pinned", "cli", new DataplanePinned(41, "rollback: bad rollout of shop/checkout at 03:12"));
        add(out, "dataplane-unpinned", "cli", new DataplaneUnpinned("fixed upstream"));
        add(out, "config-recorded", "engine", new ConfigRecorded(new NodeName("n1"), deepConfig()));
        add(out, "endpoint-slice-observed", "source/kube",
                new EndpointSliceObserved(new EndpointSliceRef("big", "many-endpoints"), "77", bigSlice()));
        out.add(new Entry(String.format("%03d-%s", out.size() + 1, "dataplane-unpinned"),
                new Envelope(out.size() + 1, Instant.ofEpochSecond(-1, 999_999_999), "", new DataplaneUnpinned(""))));
        // Added with the ServiceCIDR kind (tags 14 and 15, resource kind 3), still format version 1.
        add(out, "service-cidr-observed", "source/kube", new ServiceCIDRObserved("kubernetes", "12", dualStackServiceCidr()));
        add(out, "service-cidr-deleted", "source/kube", new ServiceCIDRDeleted("extra-v4", "", true));
        add(out, "source-synced", "source/kube", new SourceSynced(ResourceKind.SERVICE_CIDR, "13"));
        add(out, "source-relisted", "source/kube", new SourceRelisted(ResourceKind.SERVICE_CIDR, "14", Set.of("kubernetes", "extra-v4")));
        // Added with the node's local addresses (tag 16), still format version 1.
        add(out, "local-addresses-observed", "engine", new LocalAddressesObserved(new NodeName("worker-1.example.com"),
                List.of(IpAddress.parse("203.0.113.7"), IpAddress.parse("192.168.0.2"), IpAddress.parse("fd00:192::2"),
                        IpAddress.parse("2001:db8::1"))));
        add(out, "local-addresses-observed", "engine", new LocalAddressesObserved(new NodeName("n1"), List.of()));
        return out;
    }

    /** The default ServiceCIDR the API server creates from its dual-stack --service-cluster-ip-range. */
    private static Json.Obj dualStackServiceCidr() {
        return Json.obj("apiVersion", Json.of("networking.k8s.io/v1"), "kind", Json.of("ServiceCIDR"),
                "metadata", Json.obj("name", Json.of("kubernetes"), "uid", Json.of("5b1a7a4e-3c1e-4f7e-9a57-2d8c2b7e0c11"),
                        "resourceVersion", Json.of("12"), "creationTimestamp", Json.of("2026-03-01T11:58:00Z"),
                        "labels", Json.obj("networking.k8s.io/service-cidr-owner", Json.of("kube-apiserver"))),
                "spec", Json.obj("cidrs", Json.arr(Json.of("10.96.0.0/16"), Json.of("fd00:10:96::/112"))),
                "status", Json.obj("conditions", Json.arr(Json.obj("type", Json.of("Ready"), "status", Json.of("True"),
                        "lastTransitionTime", Json.of("2026-03-01T11:58:00Z"), "reason", Json.of(""), "message", Json.of("Kubernetes Service CIDR is ready")))));
    }

    private static void add(List<Entry> out, String type, String source, ClusterEvent e) {
        int n = out.size() + 1;
        out.add(new Entry(String.format("%03d-%s", n, type), new Envelope(n, T0.plusSeconds(n), source, e)));
    }

    static Json.Obj meta(String ns, String name, String rv, Object... labelsAndAnnotations) {
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        m.put("name", Json.of(name));
        if (!ns.isEmpty()) {
            m.put("namespace", Json.of(ns));
        }
        m.put("uid", Json.of("6c1e4a2b-" + Integer.toHexString((ns + name).hashCode() & 0xFFFF) + "-4f00-9d6e-0242ac120002"));
        m.put("resourceVersion", Json.of(rv));
        m.put("creationTimestamp", Json.of("2026-02-27T08:15:00Z"));
        for (int i = 0; i + 1 < labelsAndAnnotations.length; i += 2) {
            m.put((String) labelsAndAnnotations[i], (Json) labelsAndAnnotations[i + 1]);
        }
        return new Json.Obj(m);
    }

    static Json.Obj clusterIpService() {
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"),
                "metadata", meta("default", "web", "1042", "labels", Json.obj("app", Json.of("web"))),
                "spec", Json.obj("type", Json.of("ClusterIP"), "clusterIP", Json.of("172.30.0.41"), "clusterIPs", Json.arr(Json.of("172.30.0.41")),
                        "ipFamilies", Json.arr(Json.of("IPv4")), "ipFamilyPolicy", Json.of("SingleStack"), "selector", Json.obj("app", Json.of("web")),
                        "ports", Json.arr(
                                Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port", Json.of(80), "targetPort", Json.of(8080)),
                                Json.obj("name", Json.of("https"), "protocol", Json.of("TCP"), "port", Json.of(443), "targetPort", Json.of("https"))),
                        "sessionAffinity", Json.of("None"), "internalTrafficPolicy", Json.of("Cluster")),
                "status", Json.obj("loadBalancer", Json.Obj.EMPTY));
    }

    static Json.Obj loadBalancerService() {
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"),
                "metadata", meta("shop", "checkout", "2001", "annotations",
                        Json.obj("service.beta.kubernetes.io/aws-load-balancer-type", Json.of("nlb"))),
                "spec", Json.obj("type", Json.of("LoadBalancer"), "clusterIP", Json.of("172.30.0.041"),
                        "clusterIPs", Json.arr(Json.of("172.30.0.041"), Json.of("fd00:10:96::a")), "ipFamilies", Json.arr(Json.of("IPv4"), Json.of("IPv6")),
                        "ipFamilyPolicy", Json.of("RequireDualStack"),
                        "ports", Json.arr(Json.obj("name", Json.of("grpc"), "protocol", Json.of("TCP"), "port", Json.of(9000), "targetPort", Json.of(9000),
                                "nodePort", Json.of(30900), "appProtocol", Json.of("kubernetes.io/h2c"))),
                        "externalIPs", Json.arr(Json.of("192.168.099.011")), "loadBalancerSourceRanges", Json.arr(Json.of(" 203.0.113.0/25")),
                        "externalTrafficPolicy", Json.of("Local"), "healthCheckNodePort", Json.of(32000), "sessionAffinity", Json.of("ClientIP"),
                        "sessionAffinityConfig", Json.obj("clientIP", Json.obj("timeoutSeconds", Json.of(10800))),
                        "allocateLoadBalancerNodePorts", Json.of(true)),
                "status", Json.obj("loadBalancer", Json.obj("ingress", Json.arr(Json.obj("ip", Json.of("1.2.3.4"), "ipMode", Json.of("VIP")),
                        Json.obj("hostname", Json.of("lb.example.com"), "ipMode", Json.of("Proxy"))))));
    }

    /** Every JSON shape: null, booleans, integer extremes, decimals, empty containers, Unicode, long and repeated strings. */
    static Json.Obj oddShapes() {
        String longText = "a string longer than ninety-six characters is never entered in the repeat table, so it is written out in full each time";
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"),
                "metadata", meta("odd", "shapes", "3", "labels", Json.obj("\u00fcml\u00e4ut", Json.of("\u65e5\u672c\u8a9e"), "emoji", Json.of("\uD83D\uDE80")),
                        "annotations", Json.obj("long-1", Json.of(longText), "long-2", Json.of(longText), "repeat-1", Json.of("same"),
                                "repeat-2", Json.of("same"), "", Json.of("empty key"), "quote\"and\\slash", Json.of("tab\there\nnewline\u0000nul"))),
                "spec", Json.obj("type", Json.of("ClusterIP"), "clusterIP", Json.of("None"), "publishNotReadyAddresses", Json.of(false)),
                "extra", Json.obj("null", Json.Null.INSTANCE, "true", Json.of(true), "min", Json.of(Long.MIN_VALUE), "max", Json.of(Long.MAX_VALUE),
                        "zero", Json.of(0), "minusOne", Json.of(-1), "tenth", new Json.Dec(0.1), "negZero", new Json.Dec(-0.0),
                        "tiny", new Json.Dec(Double.MIN_VALUE), "huge", new Json.Dec(Double.MAX_VALUE), "one", new Json.Dec(1.0),
                        "emptyObject", Json.Obj.EMPTY, "emptyArray", Json.Arr.EMPTY, "emptyString", Json.of(""),
                        "mixed", Json.arr(Json.of(1), Json.of("1"), new Json.Dec(1.5), Json.Null.INSTANCE, Json.arr(Json.arr()), Json.obj("k", Json.obj()))),
                "status", Json.Obj.EMPTY);
    }

    static Json.Obj endpoint(String ip, boolean ready, boolean serving, boolean terminating, String node, String zone, String pod) {
        return Json.obj("addresses", Json.arr(Json.of(ip)),
                "conditions", Json.obj("ready", Json.of(ready), "serving", Json.of(serving), "terminating", Json.of(terminating)),
                "nodeName", Json.of(node), "zone", Json.of(zone),
                "targetRef", Json.obj("kind", Json.of("Pod"), "namespace", Json.of("default"), "name", Json.of(pod),
                        "uid", Json.of("0b6a9a1e-" + Integer.toHexString(pod.hashCode() & 0xFFFF) + "-4c1d-8a2e-3f5c6d7e8f90")));
    }

    /** The realistic slice: five endpoints with conditions, nodeName, zone, targetRef; labels and annotations. */
    static Json.Obj endpointSlice() {
        return Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", meta("default", "web-7xk2p", "1050",
                        "labels", Json.obj("kubernetes.io/service-name", Json.of("web"),
                                "endpointslice.kubernetes.io/managed-by", Json.of("endpointslice-controller.k8s.io"), "app", Json.of("web")),
                        "annotations", Json.obj("endpoints.kubernetes.io/last-change-trigger-time", Json.of("2026-03-01T11:59:58Z")),
                        "ownerReferences", Json.arr(Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Service"), "name", Json.of("web"),
                                "uid", Json.of("6c1e4a2b-1f2e-4f00-9d6e-0242ac120002"), "controller", Json.of(true), "blockOwnerDeletion", Json.of(true)))),
                "addressType", Json.of("IPv4"),
                "endpoints", Json.arr(
                        endpoint("10.180.0.1", true, true, false, "worker-1", "zone-a", "web-5d4f8-abcde"),
                        endpoint("10.180.0.2", true, true, false, "worker-1", "zone-a", "web-5d4f8-fghij"),
                        endpoint("10.180.1.3", true, true, false, "worker-2", "zone-b", "web-5d4f8-klmno"),
                        endpoint("10.180.2.4", false, true, true, "worker-3", "zone-c", "web-5d4f8-pqrst"),
                        endpoint("10.180.2.5", false, false, false, "worker-3", "zone-c", "web-5d4f8-uvwxy")),
                "ports", Json.arr(Json.obj("name", Json.of("http"), "protocol", Json.of("TCP"), "port", Json.of(8080)),
                        Json.obj("name", Json.of("https"), "protocol", Json.of("TCP"), "port", Json.of(8443))));
    }

    static Json.Obj ipv6TerminatingSlice() {
        return Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", meta("shop", "checkout-v6-abcde", "2002", "labels", Json.obj("kubernetes.io/service-name", Json.of("checkout"))),
                "addressType", Json.of("IPv6"),
                "endpoints", Json.arr(Json.obj("addresses", Json.arr(Json.of("fd00:10:244::1f")),
                        "conditions", Json.obj("ready", Json.of(false), "serving", Json.of(true), "terminating", Json.of(true)),
                        "hints", Json.obj("forZones", Json.arr(Json.obj("name", Json.of("zone-a"))), "forNodes", Json.arr(Json.obj("name", Json.of("worker-1"))))),
                        Json.obj("addresses", Json.arr(), "conditions", Json.Obj.EMPTY)),
                "ports", Json.Arr.EMPTY);
    }

    static Json.Obj node() {
        return Json.obj("apiVersion", Json.of("v1"), "kind", Json.of("Node"),
                "metadata", meta("", "worker-1.example.com", "880", "labels", Json.obj("kubernetes.io/hostname", Json.of("worker-1.example.com"),
                        "topology.kubernetes.io/zone", Json.of("zone-a"), "kubernetes.io/os", Json.of("linux"))),
                "spec", Json.obj("podCIDR", Json.of("10.180.0.0/24"), "podCIDRs", Json.arr(Json.of("10.180.0.0/24"), Json.of("fd00:10:244::/64")),
                        "providerID", Json.of("kind://podman/kind/worker-1"),
                        "taints", Json.arr(Json.obj("key", Json.of("node.kubernetes.io/unschedulable"), "effect", Json.of("NoSchedule"),
                                "timeAdded", Json.of("2026-03-01T10:00:00Z")))),
                "status", Json.obj("addresses", Json.arr(Json.obj("type", Json.of("InternalIP"), "address", Json.of("192.168.0.2")),
                        Json.obj("type", Json.of("InternalIP"), "address", Json.of("2001:db8::2")),
                        Json.obj("type", Json.of("Hostname"), "address", Json.of("worker-1"))),
                        "allocatable", Json.obj("cpu", Json.of("3800m"), "memory", Json.of("15Gi"), "pods", Json.of("110"))));
    }

    static Json.Obj config() {
        return Json.obj("apiVersion", Json.of("kubeproxy.config.k8s.io/v1alpha1"), "kind", Json.of("KubeProxyConfiguration"),
                "mode", Json.of("nftables"), "clusterCIDR", Json.of("10.180.0.0/14,fd00:10:244::/56"),
                "nodePortAddresses", Json.arr(Json.of("primary")), "syncPeriod", Json.of("30s"), "minSyncPeriod", Json.of("1s"),
                "conntrack", Json.obj("maxPerCore", Json.of(32768), "min", Json.of(131072), "tcpEstablishedTimeout", Json.of("24h0m0s")),
                "nftables", Json.obj("masqueradeAll", Json.of(false), "masqueradeBit", Json.of(14)),
                "kproxy", Json.obj("journal", Json.obj("dir", Json.of("/var/lib/kproxy/journal"), "fsyncWindowMillis", Json.of(5)),
                        "healthThresholdFactor", new Json.Dec(2.0)));
    }

    /** Nesting exactly at the limit: the innermost value sits 64 levels below the root object. */
    static Json.Obj deepConfig() {
        Json inner = Json.of("bottom");
        for (int level = WireReader.MAX_DEPTH - 1; level >= 1; level--) {
            inner = level % 2 == 0 ? Json.arr(inner) : Json.obj("level" + level, inner);
        }
        return Json.obj("deep", inner);
    }

    /** A hundred endpoints: big arrays, and a repeat table that outgrows one-byte references. */
    static Json.Obj bigSlice() {
        List<Json> eps = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            eps.add(Json.obj("addresses", Json.arr(Json.of("10.181." + (i / 50) + "." + (i % 250))),
                    "conditions", Json.obj("ready", Json.of(i % 7 != 0)), "nodeName", Json.of("worker-" + (i % 9)), "zone", Json.of("zone-" + (char) ('a' + i % 3))));
        }
        return Json.obj("apiVersion", Json.of("discovery.k8s.io/v1"), "kind", Json.of("EndpointSlice"),
                "metadata", meta("big", "many-endpoints", "77", "labels", Json.obj("kubernetes.io/service-name", Json.of("many"))),
                "addressType", Json.of("IPv4"), "endpoints", Json.arr(eps),
                "ports", Json.arr(Json.obj("name", Json.of(""), "protocol", Json.of("UDP"), "port", Json.of(53))));
    }
}
