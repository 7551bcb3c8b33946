package io.kproxy.state;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import java.util.List;

/**
 * What the fold knows of this proxy's own Node.
 *
 * @param name       the node name ("" until a {@code ConfigRecorded} names it)
 * @param observed   a {@code NodeObserved} has been folded and no delete since
 * @param zone       label {@code topology.kubernetes.io/zone}, or ""
 * @param primaryIPs the node's primary IPs, at most one per family (upstream's
 *                   {@code GetNodeHostIPs}: InternalIP first, then ExternalIP), as the Node object
 *                   gives them; a configured {@code bindAddress} overrides them in
 *                   {@link FamilyState#nodeIPs()} only
 * @param podCIDRs   {@code spec.podCIDRs} (for {@code detectLocalMode: NodeCIDR})
 * @param eligible   false when the Node is being deleted, was deleted, or is tainted
 *                   {@code ToBeDeletedByClusterAutoscaler} (KEP-3836); true before any Node was
 *                   folded, as upstream assumes at startup; /healthz reports it
 * @param localAddresses the node's local addresses its agent recorded last
 *                   ({@code LocalAddressesObserved}: every address but loopback, IPv6 link-local
 *                   and {@code kube-ipvs0}'s), sorted; empty when none was recorded (ipvs mode
 *                   then puts NodePorts on the Node object's addresses)
 */
public record NodeInfo(String name, boolean observed, String zone, List<IpAddress> primaryIPs, List<Cidr> podCIDRs, boolean eligible,
        List<IpAddress> localAddresses) {

    /** With no local addresses recorded. */
    public NodeInfo(String name, boolean observed, String zone, List<IpAddress> primaryIPs, List<Cidr> podCIDRs, boolean eligible) {
        this(name, observed, zone, primaryIPs, podCIDRs, eligible, List.of());
    }

    public NodeInfo {
        if (name == null || zone == null) {
            throw new IllegalArgumentException("name and zone must not be null (use \"\")");
        }
        primaryIPs = List.copyOf(primaryIPs);
        podCIDRs = List.copyOf(podCIDRs);
        localAddresses = List.copyOf(localAddresses);
    }
}
