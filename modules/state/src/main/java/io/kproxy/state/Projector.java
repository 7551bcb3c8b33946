package io.kproxy.state;

import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Keeps {@link NodeState} equal to the projection of a {@link ClusterState}, incrementally: after
 * a change to some Services or their slices only those Services' ports are recomputed; a change
 * of the node name or zone (which every endpoint's locality or topology depends on) recomputes
 * all of them. Unchanged entries keep their identity, so {@link PersistentMap#diff} stays cheap.
 */
final class Projector {

    private Projector() {
    }

    /**
     * From this many Services a projection from scratch (a restart's, of the state its snapshot
     * holds) is split in two halves by Service, the first projected on a thread of its own.
     */
    static final int SPLIT_FROM_SERVICES = 2_000;

    /**
     * The projection of {@code cluster} from scratch. From {@value #SPLIT_FROM_SERVICES} Services
     * the lower half of the Services (in key order) is projected on a second thread
     * ({@code kproxy-projection-helper}) while the caller projects the upper half, and the two
     * port maps are joined ({@link PersistentMap#concat}: a service port sorts by its Service
     * first, so the halves' keys do not overlap); the result is the same map. The projection is
     * about 40 % of a restart's state load; split, the load of 100,000 Services took 0.5–0.8 s
     * less (docs/benchmarks.md, "Scale", thirteenth pass).
     */
    static NodeState full(ClusterState cluster) {
        ServiceSpec[] services = cluster.services.values().toArray(new ServiceSpec[0]);
        int n = services.length;
        if (n < SPLIT_FROM_SERVICES) {
            Ports all = ports(cluster, services, 0, n);
            return frame(cluster, all.v4(), all.v6());
        }
        int half = n / 2;
        // join() waits through an interrupt (the projection is the caller's state) and keeps it for the caller.
        CompletableFuture<Ports> lower = CompletableFuture.supplyAsync(() -> ports(cluster, services, 0, half),
                task -> Thread.ofPlatform().name("kproxy-projection-helper").daemon().start(task));
        Ports upper = ports(cluster, services, half, n);
        Ports low;
        try {
            low = lower.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return frame(cluster, PersistentMap.concat(low.v4(), upper.v4()), PersistentMap.concat(low.v6(), upper.v6()));
    }

    /** Both families' port maps of some Services. */
    private record Ports(PersistentMap<ServicePortName, ServicePortState> v4, PersistentMap<ServicePortName, ServicePortState> v6) {
    }

    /** The port maps of {@code services[from..to)} alone. */
    private static Ports ports(ClusterState cluster, ServiceSpec[] services, int from, int to) {
        List<Map.Entry<ServicePortName, ServicePortState>> v4 = new ArrayList<>();
        List<Map.Entry<ServicePortName, ServicePortState>> v6 = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ServiceSpec s = services[i];
            PersistentMap<EndpointSliceRef, SliceSpec> slices = cluster.slicesOf(s.ref());
            project(cluster, s, slices, IpFamily.IPV4, v4);
            project(cluster, s, slices, IpFamily.IPV6, v6);
        }
        return new Ports(plusAll(PersistentMap.empty(), v4), plusAll(PersistentMap.empty(), v6));
    }

    /** Appends the entries of service {@code s} (with its {@code slices}) in family {@code f} to {@code out}. */
    private static void project(ClusterState cluster, ServiceSpec s, PersistentMap<EndpointSliceRef, SliceSpec> slices, IpFamily f,
            List<Map.Entry<ServicePortName, ServicePortState>> out) {
        Projection.project(s, slices, cluster.settings.nodeName(), cluster.node.zone(), f, (k, v) -> out.add(Map.entry(k, v)));
    }

    /** {@code base} with {@code entries} put in order (an equal value keeps the entry it replaces). */
    private static PersistentMap<ServicePortName, ServicePortState> plusAll(PersistentMap<ServicePortName, ServicePortState> base,
            List<Map.Entry<ServicePortName, ServicePortState>> entries) {
        PersistentMap<ServicePortName, ServicePortState> m = base;
        for (Map.Entry<ServicePortName, ServicePortState> e : entries) {
            m = m.plus(e.getKey(), e.getValue());
        }
        return m;
    }

    /**
     * {@code before} (the projection of {@code oldCluster}) moved to the projection of
     * {@code newCluster}, given that only the services in {@code touched} (or, when
     * {@code everything}, any) may have changed.
     */
    static NodeState update(NodeState before, ClusterState oldCluster, ClusterState newCluster, Collection<ServiceRef> touched,
            boolean everything) {
        boolean all = everything || !oldCluster.settings.nodeName().equals(newCluster.settings.nodeName())
                || !oldCluster.node.zone().equals(newCluster.node.zone());
        PersistentMap<ServicePortName, ServicePortState> v4 = before.ipv4().ports();
        PersistentMap<ServicePortName, ServicePortState> v6 = before.ipv6().ports();
        if (all) {
            v4 = rebuild(v4, newCluster, IpFamily.IPV4);
            v6 = rebuild(v6, newCluster, IpFamily.IPV6);
        } else {
            for (ServiceRef ref : touched) {
                v4 = replace(v4, oldCluster.services.get(ref), newCluster, ref, IpFamily.IPV4);
                v6 = replace(v6, oldCluster.services.get(ref), newCluster, ref, IpFamily.IPV6);
            }
        }
        if (oldCluster.settings == newCluster.settings && oldCluster.node == newCluster.node
                && oldCluster.serviceCidrs == newCluster.serviceCidrs) {
            // Only services changed: keep the node-level parts as they are (the hot path).
            return new NodeState(before.node(), before.settings(), newCluster.servicesSynced && newCluster.slicesSynced,
                    withPorts(before.ipv4(), v4), withPorts(before.ipv6(), v6));
        }
        return frame(newCluster, v4, v6);
    }

    private static FamilyState withPorts(FamilyState f, PersistentMap<ServicePortName, ServicePortState> ports) {
        return ports == f.ports() ? f : new FamilyState(f.family(), ports, f.nodeIPs(), f.nodePortAddresses(), f.localDetector());
    }

    /** The node-level parts around the given port maps. */
    private static NodeState frame(ClusterState c, PersistentMap<ServicePortName, ServicePortState> v4,
            PersistentMap<ServicePortName, ServicePortState> v6) {
        return new NodeState(NodeContext.nodeInfo(c.settings, c.node), c.dataplane(), c.servicesSynced && c.slicesSynced,
                family(c, IpFamily.IPV4, v4), family(c, IpFamily.IPV6, v6));
    }

    private static FamilyState family(ClusterState c, IpFamily f, PersistentMap<ServicePortName, ServicePortState> ports) {
        return new FamilyState(f, ports, NodeContext.nodeIPs(c.settings, c.node, f), NodeContext.nodePortAddresses(c.settings, c.node, f),
                NodeContext.localDetector(c.settings, c.node, f));
    }

    private static PersistentMap<ServicePortName, ServicePortState> replace(PersistentMap<ServicePortName, ServicePortState> ports,
            ServiceSpec old, ClusterState cluster, ServiceRef ref, IpFamily f) {
        ServiceSpec now = cluster.services.get(ref);
        Map<ServicePortName, ServicePortState> fresh = new HashMap<>();
        if (now != null) {
            Projection.project(now, cluster.slicesOf(ref), cluster.settings.nodeName(), cluster.node.zone(), f, fresh::put);
        }
        for (ServicePortName k : Projection.keys(old, f)) {
            if (!fresh.containsKey(k)) {
                ports = ports.minus(k);
            }
        }
        for (Map.Entry<ServicePortName, ServicePortState> e : fresh.entrySet()) {
            ports = ports.plus(e.getKey(), e.getValue());
        }
        return ports;
    }

    private static PersistentMap<ServicePortName, ServicePortState> rebuild(PersistentMap<ServicePortName, ServicePortState> ports,
            ClusterState cluster, IpFamily f) {
        List<Map.Entry<ServicePortName, ServicePortState>> fresh = new ArrayList<>();
        for (ServiceSpec s : cluster.services.values()) {
            project(cluster, s, cluster.slicesOf(s.ref()), f, fresh);
        }
        PersistentMap<ServicePortName, ServicePortState> result = plusAll(ports, fresh);
        Set<ServicePortName> present = new HashSet<>();
        fresh.forEach(e -> present.add(e.getKey()));
        for (ServicePortName k : ports.keySet()) {
            if (!present.contains(k)) {
                result = result.minus(k);
            }
        }
        return result;
    }
}
