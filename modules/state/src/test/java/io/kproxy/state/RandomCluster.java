package io.kproxy.state;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncKind;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.NodeFixture;
import io.kproxy.testkit.ServiceFixture;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded generator of plausible (and sometimes malformed) cluster histories over a small
 * universe of Services, EndpointSlices and one Node, so that updates collide often. It remembers
 * the last object observed under each key, so that a test can revert an update.
 */
final class RandomCluster {

    static final int SERVICES = 6;
    static final int SLICES = 10;

    private final Random rnd;
    private int version;
    final Map<String, ServiceObserved> services = new HashMap<>();
    final Map<String, EndpointSliceObserved> slices = new HashMap<>();
    final Map<String, ServiceCIDRObserved> serviceCidrs = new HashMap<>();

    RandomCluster(long seed) {
        this.rnd = new Random(seed);
    }

    /** The next event: mostly observations, sometimes deletes, barriers, node, config and control records. */
    ClusterEvent next() {
        int r = rnd.nextInt(100);
        if (r < 35) {
            return service();
        }
        if (r < 75) {
            return slice();
        }
        if (r < 80) {
            String name = "s" + rnd.nextInt(SERVICES);
            services.remove(name);
            return new ServiceDeleted(new io.kproxy.model.ServiceRef("ns", name), "", rnd.nextBoolean());
        }
        if (r < 86) {
            String name = "sl" + rnd.nextInt(SLICES);
            slices.remove(name);
            return new EndpointSliceDeleted(new io.kproxy.model.EndpointSliceRef("ns", name), "", false);
        }
        if (r < 90) {
            return node();
        }
        if (r < 92) {
            return config();
        }
        if (r < 93) {
            ResourceKind kind = ResourceKind.values()[rnd.nextInt(ResourceKind.values().length)];
            return new SourceSynced(kind, "");
        }
        if (r < 95) {
            return relist();
        }
        if (r < 97) {
            return serviceCidr();
        }
        return switch (rnd.nextInt(4)) {
            case 0 -> new DataplanePinned(rnd.nextInt(3), "test");
            case 1 -> new DataplaneUnpinned("test");
            case 2 -> new LocalAddressesObserved(new NodeName(rnd.nextInt(10) == 0 ? "node-2" : Logs.NODE),
                    rnd.nextBoolean() ? List.of(IpAddress.parse("192.168.0.2")) : List.of(IpAddress.parse("192.168.0.2"), IpAddress.parse("fd00::2")));
            default -> new SyncApplied("nftables", 1, 0, SyncKind.FULL, "h", Duration.ofMillis(3));
        };
    }

    ServiceObserved service() {
        String name = "s" + rnd.nextInt(SERVICES);
        ServiceFixture f = ServiceFixture.service("ns", name).resourceVersion(Integer.toString(++version));
        int shape = rnd.nextInt(10);
        int n = Integer.parseInt(name.substring(1));
        String v4 = "172.30.0." + (n + 1);
        String v6 = "fd00::" + (n + 1);
        switch (shape) {
            case 0 -> f.ipFamilies("IPv6").clusterIP(v6);
            case 1, 2 -> f.ipFamilies("IPv4", "IPv6").clusterIP(v4).clusterIP(v6);
            case 3 -> f.clusterIP("None");
            case 4 -> f.externalName("example.com").clusterIP(v4);
            case 5 -> f.ipFamilies("IPv4").clusterIP(rnd.nextBoolean() ? v4 : "172.30.0.999");
            default -> f.ipFamilies("IPv4").clusterIP(v4);
        }
        String type = switch (rnd.nextInt(4)) {
            case 0 -> "NodePort";
            case 1 -> "LoadBalancer";
            default -> "ClusterIP";
        };
        if (shape != 4) {
            f.type(type);
        }
        boolean external = !type.equals("ClusterIP");
        if (rnd.nextBoolean()) {
            f.port("", 80, "TCP", external ? 30000 + n : 0);
        }
        if (rnd.nextBoolean()) {
            f.port("dns", 53, "UDP", external ? 31000 + n : 0);
        }
        if (rnd.nextInt(3) == 0) {
            f.port("http", 8080, rnd.nextBoolean() ? "TCP" : "UDP");
        }
        if (rnd.nextInt(4) == 0) {
            f.externalIPs("1.1.1." + n, "2001:db8::" + n);
        }
        if (type.equals("LoadBalancer") && rnd.nextBoolean()) {
            f.loadBalancerIngress("5.5.5." + n).loadBalancerIngress("2001:db8:5::" + n, rnd.nextBoolean() ? "VIP" : "Proxy")
                    .loadBalancerSourceRanges("10.0.0.0/8", "fd00::/8");
        }
        if (rnd.nextInt(3) == 0) {
            f.externalTrafficPolicy("Local").healthCheckNodePort(32000 + n);
        }
        if (rnd.nextInt(4) == 0) {
            f.internalTrafficPolicy("Local");
        }
        if (rnd.nextInt(5) == 0) {
            f.sessionAffinity(100 + rnd.nextInt(3));
        }
        if (rnd.nextInt(15) == 0) {
            f.label(ServiceParser.LABEL_PROXY_NAME, "other");
        }
        ServiceObserved e = f.observed();
        services.put(name, e);
        return e;
    }

    EndpointSliceObserved slice() {
        String name = "sl" + rnd.nextInt(SLICES);
        String service = "s" + rnd.nextInt(SERVICES);
        EndpointSliceFixture f = rnd.nextInt(20) == 0 ? EndpointSliceFixture.unlabelled("ns", name)
                : EndpointSliceFixture.slice("ns", name, service);
        f.resourceVersion(Integer.toString(++version));
        boolean v6 = rnd.nextInt(3) == 0;
        f.addressType(rnd.nextInt(25) == 0 ? "FQDN" : v6 ? "IPv6" : "IPv4");
        if (rnd.nextBoolean()) {
            f.port("", rnd.nextBoolean() ? 80 : 8080, "TCP");
        }
        if (rnd.nextBoolean()) {
            f.port("dns", 5353, "UDP");
        }
        if (rnd.nextInt(3) == 0) {
            f.port("http", 9090, rnd.nextBoolean() ? "TCP" : "UDP");
        }
        boolean zoneHints = rnd.nextBoolean();
        boolean nodeHints = rnd.nextInt(3) == 0;
        int count = rnd.nextInt(5);
        for (int i = 0; i < count; i++) {
            int host = 1 + rnd.nextInt(6);
            f.endpoint(rnd.nextInt(20) == 0 ? "10.0.0.x" : v6 ? "fd00:1::" + host : "10.0.0." + host);
            int cond = rnd.nextInt(6);
            if (cond == 0) {
                f.ready(false).serving(true).terminating(true);
            } else if (cond == 1) {
                f.ready(false).serving(false);
            } else if (cond == 2) {
                f.ready(false);
            }
            int node = rnd.nextInt(3);
            if (node < 2) {
                f.node(node == 0 ? Logs.NODE : "node-2");
            }
            if (zoneHints) {
                f.zoneHints(rnd.nextBoolean() ? "zone-a" : "zone-b");
            }
            if (nodeHints) {
                f.nodeHints(rnd.nextBoolean() ? Logs.NODE : "node-2");
            }
        }
        EndpointSliceObserved e = f.observed();
        slices.put(name, e);
        return e;
    }

    NodeObserved node() {
        NodeFixture f = NodeFixture.node(rnd.nextInt(10) == 0 ? "node-2" : Logs.NODE).resourceVersion(Integer.toString(++version));
        switch (rnd.nextInt(3)) {
            case 0 -> f.zone("zone-a");
            case 1 -> f.zone("zone-b");
            default -> {
            }
        }
        f.internalIP(rnd.nextBoolean() ? "192.168.0.2" : "192.168.0.3");
        if (rnd.nextBoolean()) {
            f.internalIP("fd00:9::2");
        }
        f.podCIDRs("10.0.1.0/24");
        if (rnd.nextInt(6) == 0) {
            f.taint(NodeParser.TAINT_TO_BE_DELETED, "NoSchedule");
        }
        return f.observed();
    }

    /** A ServiceCIDR observed (sometimes with a range that does not parse) or deleted, over three names. */
    ClusterEvent serviceCidr() {
        String name = List.of("kubernetes", "extra", "more").get(rnd.nextInt(3));
        if (rnd.nextInt(4) == 0) {
            serviceCidrs.remove(name);
            return new ServiceCIDRDeleted(name, "", rnd.nextBoolean());
        }
        List<Json> cidrs = switch (rnd.nextInt(5)) {
            case 0 -> List.of(Json.of("172.30.0.0/16"));
            case 1 -> List.of(Json.of("172.30.0.0/16"), Json.of("fd00:172:30::/112"));
            case 2 -> List.of(Json.of("10.200.0.0/24"));
            case 3 -> List.of(Json.of("fd00:200::/120"), Json.of("not-a-cidr"));
            default -> List.of();
        };
        Json.Obj o = Json.obj("apiVersion", Json.of("networking.k8s.io/v1"), "kind", Json.of("ServiceCIDR"),
                "metadata", Json.obj("name", Json.of(name), "resourceVersion", Json.of(Integer.toString(++version))),
                "spec", Json.obj("cidrs", Json.arr(cidrs)));
        ServiceCIDRObserved e = new ServiceCIDRObserved(name, Integer.toString(version), o);
        serviceCidrs.put(name, e);
        return e;
    }

    ConfigRecorded config() {
        String mode = List.of("iptables", "nftables", "ipvs").get(rnd.nextInt(3));
        Json.Obj config = Json.obj("mode", Json.of(mode), "clusterCIDR", Json.of(rnd.nextBoolean() ? "10.0.0.0/8" : "10.0.0.0/8,fd00::/48"),
                "detectLocalMode", Json.of(rnd.nextBoolean() ? "ClusterCIDR" : "NodeCIDR"),
                "kproxy", Json.obj("serviceCIDRs", rnd.nextBoolean() ? Json.arr(Json.of("172.30.0.0/16")) : Json.arr()));
        return new ConfigRecorded(new NodeName(rnd.nextInt(4) == 0 ? "node-2" : Logs.NODE), config);
    }

    SourceRelisted relist() {
        ResourceKind kind = ResourceKind.values()[rnd.nextInt(ResourceKind.values().length)];
        Set<String> keys = new HashSet<>();
        switch (kind) {
            case SERVICE -> services.keySet().stream().filter(k -> rnd.nextInt(4) != 0).forEach(k -> keys.add("ns/" + k));
            case ENDPOINT_SLICE -> slices.keySet().stream().filter(k -> rnd.nextInt(4) != 0).forEach(k -> keys.add("ns/" + k));
            case NODE -> {
                if (rnd.nextBoolean()) {
                    keys.add(Logs.NODE);
                }
            }
            case SERVICE_CIDR -> serviceCidrs.keySet().stream().filter(k -> rnd.nextInt(3) != 0).forEach(keys::add);
        }
        if (kind == ResourceKind.SERVICE_CIDR) {
            serviceCidrs.keySet().removeIf(k -> !keys.contains(k));
        }
        if (kind == ResourceKind.SERVICE) {
            services.keySet().removeIf(k -> !keys.contains("ns/" + k));
        } else if (kind == ResourceKind.ENDPOINT_SLICE) {
            slices.keySet().removeIf(k -> !keys.contains("ns/" + k));
        }
        return new SourceRelisted(kind, "", keys);
    }

    Random random() {
        return rnd;
    }
}
