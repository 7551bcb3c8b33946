package io.kproxy.state;

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

/**
 * Keeps {@link NodeState} equal to the projection of a {@link ClusterState}, incrementally: after
 * a change to some Services or their slices only those Services' ports are recomputed; a change
 * of the node name or zone (which every endpoint's locality or topology depends on) recomputes
 * all of them. Unchanged entries keep their identity, so {@link PersistentMap#diff} stays cheap.
 */
final class Projector {

    private Projector() {
    }

    /** The projection of {@code cluster} from scratch. */
    static NodeState full(ClusterState cluster) {
        NodeState empty = frame(cluster, PersistentMap.empty(), PersistentMap.empty());
        return update(empty, ClusterState.empty(), cluster, Set.of(), true);
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
        Set<ServicePortName> present = new HashSet<>();
        List<Map.Entry<ServicePortName, ServicePortState>> fresh = new ArrayList<>();
        for (ServiceSpec s : cluster.services.values()) {
            Projection.project(s, cluster.slicesOf(s.ref()), cluster.settings.nodeName(), cluster.node.zone(), f,
                    (k, v) -> fresh.add(Map.entry(k, v)));
        }
        PersistentMap<ServicePortName, ServicePortState> result = ports;
        for (Map.Entry<ServicePortName, ServicePortState> e : fresh) {
            present.add(e.getKey());
            result = result.plus(e.getKey(), e.getValue());
        }
        for (ServicePortName k : ports.keySet()) {
            if (!present.contains(k)) {
                result = result.minus(k);
            }
        }
        return result;
    }
}
