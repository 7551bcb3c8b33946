package io.kproxy.state;

import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import java.util.List;

/**
 * The desired state of one IP family on this node: what upstream's single-stack proxier for
 * that family would program.
 *
 * @param family            the family
 * @param ports             every service port with a cluster IP of this family, in key order;
 *                          skipped services (headless, ExternalName, no IP of this family) are
 *                          absent
 * @param nodeIPs           the node's primary IP of this family (from its Node object), or empty
 * @param nodePortAddresses where NodePorts are accepted
 * @param localDetector     how pod traffic is recognised
 */
public record FamilyState(
        IpFamily family,
        PersistentMap<ServicePortName, ServicePortState> ports,
        List<IpAddress> nodeIPs,
        NodePortAddresses nodePortAddresses,
        LocalDetector localDetector) {

    public FamilyState {
        if (family == null || ports == null || nodePortAddresses == null || localDetector == null) {
            throw new IllegalArgumentException("family, ports, nodePortAddresses and localDetector are required");
        }
        nodeIPs = List.copyOf(nodeIPs);
    }
}
