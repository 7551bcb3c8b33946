package io.kproxy.state;

import io.kproxy.model.Cidr;
import java.util.List;
import java.util.TreeSet;

/**
 * The node's service ranges: the addresses the API server allocates ClusterIPs from, inside
 * which the nftables mode drops new connections to addresses no Service holds.
 *
 * <p>Upstream learns them only from {@code networking.k8s.io/v1} ServiceCIDR objects: the union
 * of every object's {@code spec.cidrs} ({@code pkg/proxy/config/config.go} ServiceCIDRConfig,
 * handed to {@code OnServiceCIDRsChanged} in {@code pkg/proxy/nftables/proxier.go}). kproxy does
 * the same whenever the fold holds any ServiceCIDR, and otherwise uses the configured
 * {@code kproxy.serviceCIDRs}: the API server may not serve ServiceCIDRs (before Kubernetes 1.33,
 * or with the feature off), and a node whose list has not come in yet keeps what it was told.
 * See docs/backends/nftables.md.
 */
final class ServiceRanges {

    private ServiceRanges() {
    }

    /**
     * The ranges in force: the union of the ServiceCIDRs' ranges, sorted and without duplicates
     * (one CIDR listed by two objects stays while either exists, unlike upstream's set, which
     * drops it with the first delete); the configured ranges as configured when there is none.
     */
    static List<Cidr> effective(List<Cidr> configured, PersistentMap<String, ServiceCidrSpec> serviceCidrs) {
        if (serviceCidrs.isEmpty()) {
            return configured;
        }
        TreeSet<Cidr> union = new TreeSet<>();
        for (ServiceCidrSpec s : serviceCidrs.values()) {
            union.addAll(s.cidrs());
        }
        return List.copyOf(union);
    }
}
