package io.kproxy.state;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Upstream's {@code CategorizeEndpoints} ({@code pkg/proxy/topology.go}): which endpoints serve
 * cluster-policy and local-policy traffic, with topology hints and the terminating fallback. Pure.
 */
final class Topology {

    private Topology() {
    }

    /** The topology decision for the cluster set (upstream's topologyMode). */
    enum Mode {
        NONE,
        PREFER_SAME_ZONE,
        PREFER_SAME_NODE
    }

    /**
     * @param cluster    usable cluster-policy endpoints; empty when not used or none
     * @param local      usable local-policy endpoints; empty when not used or none
     * @param hasAny     some endpoint anywhere is ready, or serving and terminating
     */
    record Categorized(List<Endpoint> cluster, List<Endpoint> local, boolean hasAny) {
    }

    /**
     * @param endpoints all endpoints of the port, merged and sorted
     * @param nodeName  this node's name (node hints)
     * @param zone      this node's zone label, "" when unknown
     */
    static Categorized categorize(List<Endpoint> endpoints, boolean usesCluster, boolean usesLocal, String nodeName, String zone) {
        if (endpoints.isEmpty()) {
            return new Categorized(List.of(), List.of(), false);
        }
        List<Endpoint> cluster = List.of();
        List<Endpoint> local = List.of();
        boolean hasAny = false;
        if (usesCluster) {
            Mode mode = mode(endpoints, nodeName, zone);
            cluster = filter(endpoints, ep -> ep.ready() && available(ep, mode, nodeName, zone));
            if (cluster.isEmpty()) {
                // No ready endpoint anywhere (topology already falls back when its zone/node has
                // none): use serving-and-terminating ones.
                cluster = filter(endpoints, ep -> ep.serving() && ep.terminating());
            }
            hasAny = !cluster.isEmpty();
        }
        if (usesLocal) {
            boolean localReady = false;
            boolean localServingTerminating = false;
            for (Endpoint ep : endpoints) {
                if (ep.ready()) {
                    hasAny = true;
                    localReady |= ep.local();
                } else if (ep.serving() && ep.terminating()) {
                    hasAny = true;
                    localServingTerminating |= ep.local();
                }
            }
            if (localReady) {
                local = filter(endpoints, ep -> ep.local() && ep.ready());
            } else if (localServingTerminating) {
                local = filter(endpoints, ep -> ep.local() && ep.serving() && ep.terminating());
            }
        }
        return new Categorized(cluster, local, hasAny);
    }

    /**
     * PreferSameNode when every ready endpoint has node hints and one names this node
     * (PreferSameTrafficDistribution, GA in 1.35, so always on); else PreferSameZone when every
     * ready endpoint has zone hints and one names this zone; else none.
     */
    static Mode mode(List<Endpoint> endpoints, String nodeName, String zone) {
        boolean hasReady = false;
        boolean allNodeHints = true;
        boolean forNode = false;
        boolean allZoneHints = true;
        boolean forZone = false;
        for (Endpoint ep : endpoints) {
            if (!ep.ready()) {
                continue;
            }
            hasReady = true;
            if (ep.nodeHints().isEmpty()) {
                allNodeHints = false;
            } else if (ep.nodeHints().contains(nodeName)) {
                forNode = true;
            }
            if (ep.zoneHints().isEmpty()) {
                allZoneHints = false;
            } else if (ep.zoneHints().contains(zone)) {
                forZone = true;
            }
        }
        if (!hasReady) {
            return Mode.NONE;
        }
        if (allNodeHints && forNode) {
            return Mode.PREFER_SAME_NODE;
        }
        if (allZoneHints && forZone) {
            return Mode.PREFER_SAME_ZONE;
        }
        return Mode.NONE;
    }

    private static boolean available(Endpoint ep, Mode mode, String nodeName, String zone) {
        return switch (mode) {
            case NONE -> true;
            case PREFER_SAME_NODE -> ep.nodeHints().contains(nodeName);
            case PREFER_SAME_ZONE -> ep.zoneHints().contains(zone);
        };
    }

    /** The matching endpoints; the input list itself when all match, to share memory. */
    private static List<Endpoint> filter(List<Endpoint> endpoints, Predicate<Endpoint> keep) {
        List<Endpoint> out = new ArrayList<>(endpoints.size());
        for (Endpoint ep : endpoints) {
            if (keep.test(ep)) {
                out.add(ep);
            }
        }
        if (out.size() == endpoints.size()) {
            return endpoints;
        }
        return out.isEmpty() ? List.of() : List.copyOf(out);
    }
}
