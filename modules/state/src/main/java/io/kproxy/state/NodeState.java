package io.kproxy.state;

import io.kproxy.model.IpFamily;

/**
 * This node's desired state: everything a backend needs to render rules, nothing it must
 * recompute. A pure function of the event log up to some offset; immutable, shares structure
 * with older and newer states, and safe to hand to any thread.
 *
 * @param node     this node
 * @param settings rule-changing settings of the configuration in force
 * @param synced   Services and EndpointSlices have both synced; nothing is programmed before
 * @param ipv4     the IPv4 family's state
 * @param ipv6     the IPv6 family's state
 */
public record NodeState(NodeInfo node, DataplaneSettings settings, boolean synced, FamilyState ipv4, FamilyState ipv6) {

    public NodeState {
        if (node == null || settings == null || ipv4 == null || ipv6 == null) {
            throw new IllegalArgumentException("node, settings and both families are required");
        }
        if (ipv4.family() != IpFamily.IPV4 || ipv6.family() != IpFamily.IPV6) {
            throw new IllegalArgumentException("ipv4 and ipv6 must hold their own families");
        }
    }

    public FamilyState family(IpFamily family) {
        return family == IpFamily.IPV4 ? ipv4 : ipv6;
    }

    /** The service ports of both families. */
    public int servicePorts() {
        return ipv4.ports().size() + ipv6.ports().size();
    }
}
