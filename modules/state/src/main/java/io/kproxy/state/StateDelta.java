package io.kproxy.state;

import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one fold step (or a run of them, {@link #merge}d) changed in the {@link NodeState}.
 *
 * @param changedPorts      service ports whose entry in either family was added, removed or
 *                          changed
 * @param conntrackCleanup  UDP service ports that had endpoints before and lost at least one
 *                          (upstream's {@code ConntrackCleanupRequired}, reference row 37)
 * @param nodeChanged       the node's topology, addresses or eligibility changed: iptables and
 *                          nftables do a full sync on a topology change
 * @param settingsChanged   the configuration in force changed (a full sync)
 */
public record StateDelta(Set<ServicePortName> changedPorts, Set<ServicePortName> conntrackCleanup, boolean nodeChanged,
        boolean settingsChanged) {

    public static final StateDelta EMPTY = new StateDelta(Set.of(), Set.of(), false, false);

    public StateDelta {
        changedPorts = Set.copyOf(changedPorts);
        conntrackCleanup = Set.copyOf(conntrackCleanup);
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
