package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import java.util.List;

/**
 * What the fold keeps of this proxy's Node.
 *
 * @param name       the node's name; "" for {@link #UNSEEN}
 * @param origin     the record that last set it; offset -1 is never used, {@link #UNSEEN} has none
 * @param deleted    a {@code NodeDeleted} (or a relist without it) was folded
 * @param zone       label {@code topology.kubernetes.io/zone}, or ""
 * @param primaryIPs upstream's {@code GetNodeHostIPs}: first InternalIP (else ExternalIP), then
 *                   the first address of the other family
 * @param podCIDRs   {@code spec.podCIDRs} (or {@code spec.podCIDR})
 * @param eligible   no deletionTimestamp and no {@code ToBeDeletedByClusterAutoscaler} taint
 */
record NodeSpec(String name, List<Origin> origin, boolean deleted, String zone, List<IpAddress> primaryIPs, List<Cidr> podCIDRs,
        boolean eligible) {

    /** No Node folded yet: eligible, as upstream assumes at startup (KEP-3836). */
    static final NodeSpec UNSEEN = new NodeSpec("", List.of(), false, "", List.of(), List.of(), true);

    NodeSpec {
        if (name == null || zone == null) {
            throw new IllegalArgumentException("name and zone are required");
        }
        origin = List.copyOf(origin);
        if (origin.size() > 1) {
            throw new IllegalArgumentException("at most one origin");
        }
        primaryIPs = List.copyOf(primaryIPs);
        podCIDRs = List.copyOf(podCIDRs);
    }

    boolean observed() {
        return !origin.isEmpty() && !deleted;
    }

    /** The state after the node was deleted: not eligible, no topology, no addresses. */
    NodeSpec deletedAt(Origin at) {
        return new NodeSpec(name, List.of(at), true, "", List.of(), List.of(), false);
    }
}
