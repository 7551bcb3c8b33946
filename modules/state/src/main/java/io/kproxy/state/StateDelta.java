package io.kproxy.state;

import io.kproxy.model.IpFamily;
import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one fold step (or a run of them, {@link #merge}d) changed in the {@link NodeState}.
 *
 * @param changedPorts      service ports whose entry in either family was added, removed or
 *                          changed
 * @param conntrackCleanup  UDP service ports that may hold stale conntrack entries: a serving
 *                          endpoint they had is gone or no longer serving, or they went from no
 *                          serving endpoint to some (upstream's {@code detectStaleConntrackEntries}
 *                          deleted endpoints and newly active services, {@code pkg/proxy/endpoints.go};
 *                          docs/upstream-behaviour.md §1.4 row 37). A port in either family
 *                          counts; a removed port that had serving endpoints counts too.
 * @param nodeChanged       something node-level changed: the {@link NodeInfo} (topology,
 *                          addresses, eligibility, name) or a family's node IPs, NodePort
 *                          addresses or local detector (which the configuration also feeds):
 *                          iptables and nftables do a full sync
 * @param settingsChanged   the {@link DataplaneSettings} in force changed (a full sync)
 */
public record StateDelta(Set<ServicePortName> changedPorts, Set<ServicePortName> conntrackCleanup, boolean nodeChanged,
        boolean settingsChanged) {

    public static final StateDelta EMPTY = new StateDelta(Set.of(), Set.of(), false, false);

    public StateDelta {
        changedPorts = Set.copyOf(changedPorts);
        conntrackCleanup = Set.copyOf(conntrackCleanup);
    }

    /**
     * How {@code after} differs from {@code before}: the service ports whose entry differs in
     * either family, the UDP ports needing conntrack cleanup, and whether the node or the
     * settings changed. Exact by construction (it compares values); cheap when the two share
     * structure, since {@link PersistentMap#diff} skips shared subtrees. A change of
     * {@link NodeState#synced()} alone yields an empty delta: callers compare it themselves.
     */
    public static StateDelta between(NodeState before, NodeState after) {
        // Hash sets: the record keeps unordered copies, and a tree set costs a comparison per level for each of the
        // first sync's 100,000 ports (docs/benchmarks.md, "Scale", thirteenth pass).
        Set<ServicePortName> changed = new HashSet<>();
        Set<ServicePortName> conntrack = new HashSet<>();
        boolean familyNodeChanged = false;
        for (IpFamily f : IpFamily.values()) {
            FamilyState a = before.family(f);
            FamilyState b = after.family(f);
            a.ports().diff(b.ports(), new PersistentMap.DiffVisitor<>() {
                @Override
                public void added(ServicePortName key, ServicePortState value) {
                    changed.add(key);
                    if (key.protocol() == Protocol.UDP && !serving(value.endpoints()).isEmpty()) {
                        conntrack.add(key);
                    }
                }

                @Override
                public void removed(ServicePortName key, ServicePortState value) {
                    changed.add(key);
                    if (key.protocol() == Protocol.UDP && !serving(value.endpoints()).isEmpty()) {
                        conntrack.add(key);
                    }
                }

                @Override
                public void changed(ServicePortName key, ServicePortState old, ServicePortState now) {
                    changed.add(key);
                    if (key.protocol() == Protocol.UDP) {
                        Set<String> was = serving(old.endpoints());
                        Set<String> is = serving(now.endpoints());
                        if (!is.containsAll(was) || (was.isEmpty() && !is.isEmpty())) {
                            conntrack.add(key);
                        }
                    }
                }
            });
            familyNodeChanged |= !a.nodeIPs().equals(b.nodeIPs()) || !a.nodePortAddresses().equals(b.nodePortAddresses())
                    || !a.localDetector().equals(b.localDetector());
        }
        boolean settingsChanged = !before.settings().equals(after.settings());
        boolean nodeChanged = familyNodeChanged || !before.node().equals(after.node());
        if (changed.isEmpty() && !nodeChanged && !settingsChanged) {
            return EMPTY;
        }
        return new StateDelta(changed, conntrack, nodeChanged, settingsChanged);
    }

    /** {@code ip:port} of the serving endpoints: upstream tracks stale entries by endpoint string and IsServing. */
    private static Set<String> serving(List<Endpoint> endpoints) {
        Set<String> out = new HashSet<>();
        for (Endpoint ep : endpoints) {
            if (ep.serving()) {
                out.add(ep.hostPort());
            }
        }
        return out;
    }

    public boolean isEmpty() {
        return changedPorts.isEmpty() && conntrackCleanup.isEmpty() && !nodeChanged && !settingsChanged;
    }

    /** The services owning the changed ports (iptables rewrites per service). */
    public Set<ServiceRef> changedServices() {
        return changedPorts.stream().map(ServicePortName::service).collect(Collectors.toUnmodifiableSet());
    }

    /** This delta followed by {@code later}: the union of both. */
    public StateDelta merge(StateDelta later) {
        if (later.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return later;
        }
        return new StateDelta(union(changedPorts, later.changedPorts), union(conntrackCleanup, later.conntrackCleanup),
                nodeChanged || later.nodeChanged, settingsChanged || later.settingsChanged);
    }

    private static <T> Set<T> union(Set<T> a, Set<T> b) {
        HashSet<T> u = new HashSet<>(a);
        u.addAll(b);
        return u;
    }
}
