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
 * @param localAddresses the node's local addresses from the last {@code LocalAddressesObserved}
 *                   (sorted), kept across Node records: they come from the node's kernel, not
 *                   from the Node object; empty when none was recorded
 */
record NodeSpec(String name, List<Origin> origin, boolean deleted, String zone, List<IpAddress> primaryIPs, List<Cidr> podCIDRs,
        boolean eligible, List<IpAddress> localAddresses) {

    /** No Node folded yet: eligible, as upstream assumes at startup (KEP-3836). */
    static final NodeSpec UNSEEN = new NodeSpec("", List.of(), false, "", List.of(), List.of(), true);

    /** With no local addresses recorded. */
    NodeSpec(String name, List<Origin> origin, boolean deleted, String zone, List<IpAddress> primaryIPs, List<Cidr> podCIDRs,
            boolean eligible) {
        this(name, origin, deleted, zone, primaryIPs, podCIDRs, eligible, List.of());
    }

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
        localAddresses = List.copyOf(localAddresses);
    }

    /** This spec with the local addresses {@code addresses} (already normalised by the event). */
    NodeSpec withLocalAddresses(List<IpAddress> addresses) {
        return new NodeSpec(name, origin, deleted, zone, primaryIPs, podCIDRs, eligible, addresses);
    }

    boolean observed() {
        return !origin.isEmpty() && !deleted;
    }

    /** The state after the node was deleted: not eligible, no topology, no addresses. */
    NodeSpec deletedAt(Origin at) {
        return new NodeSpec(name, List.of(at), true, "", List.of(), List.of(), false, localAddresses);
    }
}
