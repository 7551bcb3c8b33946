package io.kproxy.backend.nftables;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodePortAddresses;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of one family's table that does not depend on services: the table, the shared sets
 * and maps, the base chains with their hooks and the top-level regular chains (upstream's
 * {@code setupNFTables}, with the base-chain layout of the post-1.33 fixture, commit 030880a5:
 * filter chains before DNAT at priority -110 for the firewall, filter chains at 0 for
 * the endpoint and cluster-IP checks).
 *
 * @param declarations {@code add table/set/map/chain} commands, in dependency order
 * @param rules        {@code add rule} / {@code add element} commands of the top-level chains
 * @param containers   the shared sets and maps whose elements services contribute
 */
record BaseRuleset(List<String> declarations, List<String> rules, List<String> containers) {

    /** Endpoint . endpoint . protocol . port of every endpoint: hairpin connections to masquerade. */
    static final String HAIRPIN_SET = "hairpin-connections";

    /** The shared containers, each flushed on a forced full sync. */
    static final List<String> SERVICE_CONTAINERS = List.of("cluster-ips", "firewall-ips", HAIRPIN_SET, "no-endpoint-nodeports",
            "no-endpoint-services", "service-ips", "service-nodeports");

    /** The shared containers that are sets (the others are verdict maps). */
    static boolean isSet(String container) {
        return container.equals("cluster-ips") || container.equals("nodeport-ips") || container.equals(HAIRPIN_SET);
    }

    BaseRuleset {
        declarations = List.copyOf(declarations);
        rules = List.copyOf(rules);
        containers = List.copyOf(containers);
    }

    static BaseRuleset render(NftFamily f, FamilyState fs, DataplaneSettings settings) {
        String t = f.table();
        String ipX = f.ipX();
        String addr = f.addrType();
        String mark = "0x" + Integer.toHexString(1 << settings.nftablesMasqueradeBit());
        NodePortIps np = NodePortIps.of(fs);

        List<String> d = new ArrayList<>();
        d.add("add table " + t + " { comment \"rules for kube-proxy\" ; }");
        d.add("add set " + t + " cluster-ips { type " + addr + " ; comment \"Active ClusterIPs\" ; }");
        // Upstream's newest layout (docs/upstream-behaviour.md §1.3 row 35): one set instead of a
        // rule per endpoint chain.
        d.add("add set " + t + " " + HAIRPIN_SET + " { type " + addr + " . " + addr + " . inet_proto . inet_service ; comment \"service hairpin connections\" ; }");
        List<String> containers = new ArrayList<>(SERVICE_CONTAINERS);
        if (!np.matchAll()) {
            String flags = np.interval() ? " flags interval ;" : "";
            d.add("add set " + t + " nodeport-ips { type " + addr + " ;" + flags + " comment \"IPs that accept NodePort traffic\" ; }");
            containers.add("nodeport-ips");
        }
        String svcKey = addr + " . inet_proto . inet_service : verdict";
        d.add("add map " + t + " firewall-ips { type " + svcKey + " ; comment \"destinations that are subject to LoadBalancerSourceRanges\" ; }");
        d.add("add map " + t + " no-endpoint-nodeports { type inet_proto . inet_service : verdict ; comment \"vmap to drop or reject packets to service nodeports with no endpoints\" ; }");
        d.add("add map " + t + " no-endpoint-services { type " + svcKey + " ; comment \"vmap to drop or reject packets to services with no endpoints\" ; }");
        d.add("add map " + t + " service-ips { type " + svcKey + " ; comment \"ClusterIP, ExternalIP and LoadBalancer IP traffic\" ; }");
        d.add("add map " + t + " service-nodeports { type inet_proto . inet_service : verdict ; comment \"NodePort traffic\" ; }");
        // The first endpoint map of each protocol (NftDispatch) is always there, so that the node-wide
        // part does not change with the first or last Service of a protocol; further maps come and
        // go with the slots they hold.
        for (String proto : NftDispatch.PROTOCOLS) {
            String m = NftDispatch.mapName(proto, 0);
            d.add(Commands.mapDecl(t, m, NftServiceMap.endpointsType(f, proto)));
            containers.add(m);
        }
        d.add("add chain " + t + " cluster-ips-check");
        d.add("add chain " + t + " filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }");
        d.add("add chain " + t + " filter-output-pre-dnat { type filter hook output priority -110 ; }");
        d.add("add chain " + t + " filter-forward { type filter hook forward priority 0 ; }");
        d.add("add chain " + t + " filter-input { type filter hook input priority 0 ; }");
        d.add("add chain " + t + " filter-output { type filter hook output priority 0 ; }");
        d.add("add chain " + t + " firewall-check");
        d.add("add chain " + t + " mark-for-masquerade");
        d.add("add chain " + t + " masquerading");
        d.add("add chain " + t + " nat-output { type nat hook output priority -100 ; }");
        d.add("add chain " + t + " nat-postrouting { type nat hook postrouting priority 100 ; }");
        d.add("add chain " + t + " nat-prerouting { type nat hook prerouting priority -100 ; }");
        d.add("add chain " + t + " nodeport-endpoints-check");
        d.add("add chain " + t + " reject-chain { comment \"helper for @no-endpoint-services / @no-endpoint-nodeports\" ; }");
        d.add("add chain " + t + " services");
        d.add("add chain " + t + " service-endpoints-check");

        List<String> r = new ArrayList<>();
        String rule = "add rule " + t + " ";
        r.add(rule + "cluster-ips-check " + ipX + " daddr @cluster-ips reject comment \"Reject traffic to invalid ports of ClusterIPs\"");
        List<String> serviceCidrs = settings.serviceCIDRs().stream().filter(c -> c.family() == f.family()).map(Cidr::toString).toList();
        if (!serviceCidrs.isEmpty()) {
            r.add(rule + "cluster-ips-check " + ipX + " daddr { " + String.join(", ", serviceCidrs)
                    + " } drop comment \"Drop traffic to unallocated ClusterIPs\"");
        }
        r.add(rule + "filter-prerouting-pre-dnat ct state new jump firewall-check");
        r.add(rule + "filter-forward ct state new jump service-endpoints-check");
        r.add(rule + "filter-forward ct state new jump cluster-ips-check");
        r.add(rule + "filter-input ct state new jump nodeport-endpoints-check");
        r.add(rule + "filter-input ct state new jump service-endpoints-check");
        r.add(rule + "filter-output ct state new jump service-endpoints-check");
        r.add(rule + "filter-output-pre-dnat ct state new jump firewall-check");
        r.add(rule + "filter-output ct state new jump cluster-ips-check");
        r.add(rule + "firewall-check " + ipX + " daddr . meta l4proto . th dport vmap @firewall-ips");
        r.add(rule + "mark-for-masquerade mark set mark or " + mark);
        // Before the mark test, which returns for unmarked packets. A hairpin connection is one
        // that was DNATed to the very address it comes from (upstream's newest layout).
        r.add(rule + "masquerading ct status dnat " + ipX + " saddr . " + ipX + " daddr . meta l4proto . th dport @" + HAIRPIN_SET
                + " masquerade fully-random");
        r.add(rule + "masquerading mark and " + mark + " == 0 return");
        r.add(rule + "masquerading mark set mark xor " + mark);
        r.add(rule + "masquerading masquerade fully-random");
        r.add(rule + "nat-output jump services");
        r.add(rule + "nat-postrouting jump masquerading");
        r.add(rule + "nat-prerouting jump services");
        if (np.matchAll()) {
            r.add(rule + "nodeport-endpoints-check " + f.noLocalhost() + " meta l4proto . th dport vmap @no-endpoint-nodeports");
        } else {
            r.add(rule + "nodeport-endpoints-check " + ipX + " daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports");
        }
        r.add(rule + "reject-chain reject");
        r.add(rule + "services " + ipX + " daddr . meta l4proto . th dport vmap @service-ips");
        if (np.matchAll()) {
            r.add(rule + "services fib daddr type local " + f.noLocalhost() + " meta l4proto . th dport vmap @service-nodeports");
        } else if (np.interval()) {
            // A CIDR wider than one address: "local addresses inside the CIDRs" (see NodePortIps).
            r.add(rule + "services " + ipX + " daddr @nodeport-ips fib daddr type local meta l4proto . th dport vmap @service-nodeports");
        } else {
            r.add(rule + "services " + ipX + " daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports");
        }
        for (String e : np.elements()) {
            r.add("add element " + t + " nodeport-ips { " + e + " }");
        }
        r.add(rule + "service-endpoints-check " + ipX + " daddr . meta l4proto . th dport vmap @no-endpoint-services");
        return new BaseRuleset(d, r, containers);
    }

    /**
     * Which destination addresses accept NodePorts. Upstream asks the node's interfaces for the
     * addresses inside {@code nodePortAddresses}; render is pure and NodeState carries no
     * interface list, so: when every CIDR is a single address (the {@code primary} default) the
     * set holds those addresses, as upstream's; otherwise it holds the CIDRs as intervals and the
     * rule adds {@code fib daddr type local} - the same packets match. Loopback never accepts
     * NodePorts in nftables mode.
     */
    record NodePortIps(boolean matchAll, boolean interval, List<String> elements) {

        static NodePortIps of(FamilyState fs) {
            return switch (fs.nodePortAddresses()) {
                case NodePortAddresses.MatchAll m -> new NodePortIps(true, false, List.of());
                case NodePortAddresses.Cidrs c -> {
                    List<Cidr> mine = c.cidrs().stream().filter(x -> x.family() == fs.family()).toList();
                    if (mine.isEmpty() || mine.stream().anyMatch(Cidr::isZero)) {
                        yield new NodePortIps(true, false, List.of());
                    }
                    boolean hosts = mine.stream().allMatch(x -> x.prefixLength() == x.family().bits());
                    List<String> elems = hosts
                            ? mine.stream().map(Cidr::network).filter(ip -> !ip.isLoopback()).map(IpAddress::toString).distinct().toList()
                            : mine.stream().map(Cidr::toString).distinct().toList();
                    yield new NodePortIps(false, !hosts, elems);
                }
            };
        }
    }
}
