package io.kproxy.backend.iptables;

import io.kproxy.model.Cidr;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.state.DataplaneSettings;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodePortAddresses;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of one family's tables that does not depend on services (upstream's
 * {@code syncProxyRules} before and after its service loop, {@code pkg/proxy/iptables/proxier.go}):
 * the top-level chains, the masquerade chains, {@code KUBE-FORWARD}, kubelet's localhost
 * {@code KUBE-FIREWALL} rule, and the jump to {@code KUBE-NODEPORTS} that must be the last rule of
 * nat {@code KUBE-SERVICES}. Immutable.
 *
 * @param filterChains       filter chains declared (flushed) by every sync, in upstream's order
 * @param filterHead         filter rules before the services' ones
 * @param filterTail         filter rules after them ({@code KUBE-FORWARD})
 * @param natHead            nat rules before the services' ones
 * @param natTail            nat rules after them (the NodePort jumps)
 * @param localhostNodePorts NodePorts answer on 127.0.0.0/8 (IPv4 only; needs route_localnet)
 */
record TopLevel(List<String> filterChains, List<String> filterHead, List<String> filterTail, List<String> natHead, List<String> natTail,
        boolean localhostNodePorts) {

    static final List<String> NAT_CHAINS = List.of(Words.KUBE_SERVICES, Words.KUBE_NODEPORTS, Words.KUBE_POSTROUTING, Words.KUBE_MARK_MASQ);

    TopLevel {
        filterChains = List.copyOf(filterChains);
        filterHead = List.copyOf(filterHead);
        filterTail = List.copyOf(filterTail);
        natHead = List.copyOf(natHead);
        natTail = List.copyOf(natTail);
    }

    static TopLevel render(Fam f, FamilyState fs, DataplaneSettings settings, Features features) {
        String mark = Words.mark(settings.iptablesMasqueradeBit());
        boolean localhost = localhostNodePorts(f, fs, settings);
        List<String> filterChains = new ArrayList<>(List.of(Words.KUBE_SERVICES, Words.KUBE_EXTERNAL_SERVICES, Words.KUBE_FORWARD,
                Words.KUBE_NODEPORTS, Words.KUBE_PROXY_FIREWALL));
        List<String> filterHead = new ArrayList<>();
        if (localhost) {
            // route_localnet opens a hole (https://issue.k8s.io/90259); kubelet writes the same rule.
            filterChains.add(Words.KUBE_FIREWALL);
            filterHead.add("-A KUBE-FIREWALL -m comment --comment \"block incoming localnet connections\" -d 127.0.0.0/8 ! -s 127.0.0.0/8"
                    + " -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP");
        }
        List<String> natHead = new ArrayList<>();
        natHead.add("-A KUBE-POSTROUTING -m mark ! --mark " + mark + "/" + mark + " -j RETURN");
        // Clear the mark so that a packet traversing the stack again is not masqueraded twice.
        natHead.add("-A KUBE-POSTROUTING -j MARK --xor-mark " + mark);
        natHead.add("-A KUBE-POSTROUTING -m comment --comment \"kubernetes service traffic requiring SNAT\" -j MASQUERADE"
                + (features.randomFully() ? " --random-fully" : ""));
        natHead.add("-A KUBE-MARK-MASQ -j MARK --or-mark " + mark);

        List<String> natTail = new ArrayList<>();
        String last = "-A KUBE-SERVICES -m comment --comment \"kubernetes service nodeports; NOTE: this must be the last rule in this chain\"";
        switch (fs.nodePortAddresses()) {
            case NodePortAddresses.MatchAll m -> natTail.add(last + matchAllDestinations(f, localhost) + " -j KUBE-NODEPORTS");
            case NodePortAddresses.Cidrs c -> {
                List<Cidr> mine = c.cidrs().stream().filter(x -> x.family() == f.family()).toList();
                if (mine.isEmpty() || mine.stream().anyMatch(Cidr::isZero)) {
                    natTail.add(last + matchAllDestinations(f, localhost) + " -j KUBE-NODEPORTS");
                } else {
                    for (Cidr cidr : mine) {
                        nodePortJump(f, localhost, last, cidr).ifPresent(natTail::add);
                    }
                }
            }
        }

        List<String> filterTail = new ArrayList<>();
        if (!features.tcpBeLiberal()) {
            // INVALID packets would otherwise reset connections (kubernetes#74839, #117924).
            filterTail.add("-A KUBE-FORWARD -m conntrack --ctstate INVALID"
                    + (features.nfacct() ? " -m nfacct --nfacct-name " + Words.NFACCT_INVALID : "") + " -j DROP");
        }
        filterTail.add("-A KUBE-FORWARD -m comment --comment \"kubernetes forwarding rules\" -m mark --mark " + mark + "/" + mark
                + " -j ACCEPT");
        filterTail.add("-A KUBE-FORWARD -m comment --comment \"kubernetes forwarding conntrack rule\" -m conntrack --ctstate RELATED,ESTABLISHED"
                + " -j ACCEPT");
        return new TopLevel(filterChains, filterHead, filterTail, natHead, natTail, localhost);
    }

    /**
     * Upstream's {@code localhostNodePorts}: the setting, for IPv4 only, and only when
     * nodePortAddresses contains an IPv4 loopback address (matching all counts).
     */
    static boolean localhostNodePorts(Fam f, FamilyState fs, DataplaneSettings settings) {
        if (f.v6() || !settings.localhostNodePorts()) {
            return false;
        }
        IpAddress loopbackStart = IpAddress.parse("127.0.0.0");
        return switch (fs.nodePortAddresses()) {
            case NodePortAddresses.MatchAll m -> true;
            case NodePortAddresses.Cidrs c -> {
                List<Cidr> v4 = c.cidrs().stream().filter(x -> x.family() == IpFamily.IPV4).toList();
                yield v4.isEmpty() || v4.stream().anyMatch(x -> x.network().isLoopback() || x.contains(loopbackStart));
            }
        };
    }

    private static String matchAllDestinations(Fam f, boolean localhost) {
        // Localhost NodePorts never work for IPv6, and for IPv4 only with route_localnet.
        if (f.v6()) {
            return " -m addrtype --dst-type LOCAL ! -d ::1/128";
        }
        return localhost ? " -m addrtype --dst-type LOCAL" : " -m addrtype --dst-type LOCAL ! -d 127.0.0.0/8";
    }

    /**
     * One NodePort jump for a nodePortAddresses CIDR. Upstream lists the node's interface
     * addresses inside the CIDRs and writes {@code -d <ip>} for each; render is pure and the state
     * holds no interface list, so a single-address CIDR (the {@code primary} keyword) is written
     * as upstream does, and a wider one as {@code -d <cidr> -m addrtype --dst-type LOCAL}: the
     * same packets match (docs/backends/iptables.md, deviation 2).
     */
    private static java.util.Optional<String> nodePortJump(Fam f, boolean localhost, String last, Cidr cidr) {
        boolean host = cidr.prefixLength() == cidr.family().bits();
        if (host) {
            if (cidr.network().isLoopback() && (f.v6() || !localhost)) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(last + " -d " + cidr.network() + " -j KUBE-NODEPORTS");
        }
        // An iptables rule takes one -d: a wide CIDR that holds loopback addresses cannot also
        // exclude them. Loopback destinations are harmless there: without route_localnet (and
        // always for ::1) the kernel drops a loopback packet DNATed off the host.
        if (cidr.network().isLoopback() && (f.v6() || !localhost)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(last + " -d " + cidr + " -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS");
    }
}
