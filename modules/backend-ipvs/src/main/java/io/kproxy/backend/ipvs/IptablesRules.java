package io.kproxy.backend.ipvs;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpFamily;
import io.kproxy.state.LocalDetector;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The ipvs mode's helper iptables rules for one family as {@code iptables-restore --noflush}
 * input, line for line as upstream's {@code writeIptablesRules} and {@code createAndLinkKubeChain}
 * write them ({@code pkg/proxy/ipvs/proxier.go}): nat chains and rules, then filter chains and
 * rules. Every chain is declared, so a restore rewrites each whole. Pure.
 */
final class IptablesRules {

    /** The chains ipvs mode owns, nat then filter, in upstream's {@code iptablesChains} order. */
    static final List<String> NAT_CHAINS = List.of("KUBE-SERVICES", "KUBE-POSTROUTING", "KUBE-NODE-PORT", "KUBE-LOAD-BALANCER", "KUBE-MARK-MASQ");
    static final List<String> FILTER_CHAINS = List.of("KUBE-FORWARD", "KUBE-NODE-PORT", "KUBE-PROXY-FIREWALL", "KUBE-SOURCE-RANGES-FIREWALL",
            "KUBE-IPVS-FILTER", "KUBE-IPVS-OUT-FILTER");

    /** A jump from a built-in chain, ensured first in it (upstream's {@code iptablesJumpChain}). */
    record Jump(String table, String chain, String comment, String target) {
        String line() {
            return "-I " + chain + " -m comment --comment \"" + comment + "\" -j " + target;
        }
    }

    static final List<Jump> JUMPS = List.of(
            new Jump("nat", "OUTPUT", "kubernetes service portals", "KUBE-SERVICES"),
            new Jump("nat", "PREROUTING", "kubernetes service portals", "KUBE-SERVICES"),
            new Jump("nat", "POSTROUTING", "kubernetes postrouting rules", "KUBE-POSTROUTING"),
            new Jump("filter", "FORWARD", "kubernetes forwarding rules", "KUBE-FORWARD"),
            new Jump("filter", "INPUT", "kubernetes health check rules", "KUBE-NODE-PORT"),
            new Jump("filter", "INPUT", "kube-proxy firewall rules", "KUBE-PROXY-FIREWALL"),
            new Jump("filter", "FORWARD", "kube-proxy firewall rules", "KUBE-PROXY-FIREWALL"),
            new Jump("filter", "INPUT", "kubernetes ipvs access filter", "KUBE-IPVS-FILTER"),
            new Jump("filter", "OUTPUT", "kubernetes ipvs access filter", "KUBE-IPVS-OUT-FILTER"));

    /** The sets upstream's {@code ipsetWithIptablesChain} turns into one rule each when not empty. */
    private record SetRule(IpSets set, boolean filter, String from, String to, String match, String protocol) {
    }

    private static final List<SetRule> SET_RULES = List.of(
            new SetRule(IpSets.LOOP_BACK, false, "KUBE-POSTROUTING", "MASQUERADE", "dst,dst,src", ""),
            new SetRule(IpSets.LOAD_BALANCER, false, "KUBE-SERVICES", "KUBE-LOAD-BALANCER", "dst,dst", ""),
            new SetRule(IpSets.LOAD_BALANCER_LOCAL, false, "KUBE-LOAD-BALANCER", "RETURN", "dst,dst", ""),
            new SetRule(IpSets.NODE_PORT_LOCAL_TCP, false, "KUBE-NODE-PORT", "RETURN", "dst", "tcp"),
            new SetRule(IpSets.NODE_PORT_TCP, false, "KUBE-NODE-PORT", "KUBE-MARK-MASQ", "dst", "tcp"),
            new SetRule(IpSets.NODE_PORT_LOCAL_UDP, false, "KUBE-NODE-PORT", "RETURN", "dst", "udp"),
            new SetRule(IpSets.NODE_PORT_UDP, false, "KUBE-NODE-PORT", "KUBE-MARK-MASQ", "dst", "udp"),
            new SetRule(IpSets.NODE_PORT_LOCAL_SCTP, false, "KUBE-NODE-PORT", "RETURN", "dst,dst", "sctp"),
            new SetRule(IpSets.NODE_PORT_SCTP, false, "KUBE-NODE-PORT", "KUBE-MARK-MASQ", "dst,dst", "sctp"),
            new SetRule(IpSets.LOAD_BALANCER_FW, true, "KUBE-PROXY-FIREWALL", "KUBE-SOURCE-RANGES-FIREWALL", "dst,dst", ""),
            new SetRule(IpSets.LOAD_BALANCER_SOURCE_CIDR, true, "KUBE-SOURCE-RANGES-FIREWALL", "RETURN", "dst,dst,src", ""),
            new SetRule(IpSets.LOAD_BALANCER_SOURCE_IP, true, "KUBE-SOURCE-RANGES-FIREWALL", "RETURN", "dst,dst,src", ""));

    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.:@-]{1,15}");

    private IptablesRules() {
    }

    /**
     * The restore text of one family.
     *
     * @param masqueradeBit the mark bit ({@code iptables.masqueradeBit}, which ipvs mode uses)
     * @param randomFully   iptables is new enough for {@code --random-fully} (1.6.2 or later)
     */
    static String render(FamilyImage image, boolean masqueradeAll, int masqueradeBit, LocalDetector detector, boolean randomFully) {
        IpFamily f = image.family();
        String mark = "0x" + String.format("%08x", 1L << masqueradeBit);
        List<String> nat = new ArrayList<>();
        List<String> filter = new ArrayList<>();
        nat.add("-A KUBE-SERVICES -s " + (f == IpFamily.IPV4 ? "127.0.0.0/8" : "::1/128") + " -j RETURN");
        for (SetRule r : SET_RULES) {
            if (image.empty(r.set())) {
                continue;
            }
            String line = "-A " + r.from() + (r.protocol().isEmpty() ? "" : " -p " + r.protocol()) + " -m comment --comment "
                    + r.set().quotedComment() + " -m set --match-set " + r.set().name(f) + " " + r.match() + " -j " + r.to();
            (r.filter() ? filter : nat).add(line);
        }
        if (!image.empty(IpSets.CLUSTER_IP)) {
            String args = "-A KUBE-SERVICES -m comment --comment " + IpSets.CLUSTER_IP.quotedComment() + " -m set --match-set "
                    + IpSets.CLUSTER_IP.name(f);
            Optional<String> notLocal = ifNotLocal(f, detector);
            if (masqueradeAll) {
                nat.add(args + " dst,dst -j KUBE-MARK-MASQ");
            } else if (notLocal.isPresent()) {
                nat.add(args + " dst,dst " + notLocal.get() + " -j KUBE-MARK-MASQ");
            } else {
                // Node-originated traffic to a VIP takes a VIP as its source (kube-ipvs0 holds them all).
                nat.add(args + " src,dst -j KUBE-MARK-MASQ");
            }
        }
        if (!image.empty(IpSets.EXTERNAL_IP)) {
            String args = "-A KUBE-SERVICES -m comment --comment " + IpSets.EXTERNAL_IP.quotedComment() + " -m set --match-set "
                    + IpSets.EXTERNAL_IP.name(f) + " dst,dst";
            nat.add(args + " -j KUBE-MARK-MASQ");
            externalIPRules(nat, args);
        }
        if (!image.empty(IpSets.EXTERNAL_IP_LOCAL)) {
            externalIPRules(nat, "-A KUBE-SERVICES -m comment --comment " + IpSets.EXTERNAL_IP_LOCAL.quotedComment() + " -m set --match-set "
                    + IpSets.EXTERNAL_IP_LOCAL.name(f) + " dst,dst");
        }
        nat.add("-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT");
        nat.add("-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ");
        filter.add("-A KUBE-SOURCE-RANGES-FIREWALL -j DROP");
        filter.addAll(image.outFilter());
        for (IpSets s : List.of(IpSets.CLUSTER_IP, IpSets.LOAD_BALANCER)) {
            if (!image.empty(s)) {
                nat.add("-A KUBE-SERVICES -m set --match-set " + s.name(f) + " dst,dst -j ACCEPT");
            }
        }
        filter.add("-A KUBE-FORWARD -m comment --comment \"kubernetes forwarding rules\" -m mark --mark " + mark + "/" + mark + " -j ACCEPT");
        filter.add("-A KUBE-FORWARD -m comment --comment \"kubernetes forwarding conntrack rule\" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT");
        filter.add("-A KUBE-NODE-PORT -m comment --comment " + IpSets.HEALTH_CHECK_NODE_PORT.quotedComment() + " -m set --match-set "
                + IpSets.HEALTH_CHECK_NODE_PORT.name(f) + " dst -j ACCEPT");
        for (IpSets s : List.of(IpSets.LOAD_BALANCER, IpSets.CLUSTER_IP, IpSets.EXTERNAL_IP, IpSets.EXTERNAL_IP_LOCAL)) {
            filter.add("-A KUBE-IPVS-FILTER -m set --match-set " + s.name(f) + " dst,dst -j RETURN");
        }
        filter.add("-A KUBE-IPVS-FILTER -m set --match-set " + IpSets.HEALTH_CHECK_NODE_PORT.name(f) + " dst -j RETURN");
        filter.add("-A KUBE-IPVS-FILTER -m conntrack --ctstate NEW -m set --match-set " + IpSets.IPVS_IPS.name(f) + " dst -j REJECT");
        nat.add("-A KUBE-POSTROUTING -m mark ! --mark " + mark + "/" + mark + " -j RETURN");
        nat.add("-A KUBE-POSTROUTING -j MARK --xor-mark " + mark);
        nat.add("-A KUBE-POSTROUTING -m comment --comment \"kubernetes service traffic requiring SNAT\" -j MASQUERADE"
                + (randomFully ? " --random-fully" : ""));
        nat.add("-A KUBE-MARK-MASQ -j MARK --or-mark " + mark);

        StringBuilder b = new StringBuilder("*nat\n");
        NAT_CHAINS.forEach(c -> b.append(':').append(c).append(" - [0:0]\n"));
        nat.forEach(l -> b.append(l).append('\n'));
        b.append("COMMIT\n*filter\n");
        FILTER_CHAINS.forEach(c -> b.append(':').append(c).append(" - [0:0]\n"));
        filter.forEach(l -> b.append(l).append('\n'));
        return b.append("COMMIT\n").toString();
    }

    /**
     * Upstream's {@code externalIPRules}: accept external-IP traffic from off the machine (not
     * bridged, not locally sourced) and traffic to an external IP the node itself owns.
     */
    private static void externalIPRules(List<String> nat, String args) {
        nat.add(args + " -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT");
        nat.add(args + " -m addrtype --dst-type LOCAL -j ACCEPT");
    }

    /**
     * Upstream's {@code LocalTrafficDetector.IfNotLocal} ({@code pkg/proxy/util/localdetector.go})
     * for the family, or empty with no detector; with several CIDRs the first of the family, as
     * upstream's {@code getLocalDetectors}.
     */
    static Optional<String> ifNotLocal(IpFamily f, LocalDetector detector) {
        return switch (detector) {
            case LocalDetector.None none -> Optional.empty();
            case LocalDetector.Cidrs c -> c.cidrs().stream().filter(x -> x.family() == f).findFirst().map(Cidr::toString).map(x -> "! -s " + x);
            case LocalDetector.BridgeInterface b -> IFNAME.matcher(b.name()).matches() ? Optional.of("! -i " + b.name()) : Optional.empty();
            case LocalDetector.InterfacePrefix p -> IFNAME.matcher(p.prefix()).matches() ? Optional.of("! -i " + p.prefix() + "+") : Optional.empty();
        };
    }
}
