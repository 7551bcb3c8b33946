package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.List;

/**
 * One family's ruleset as {@code iptables-restore} (or {@code ip6tables-restore}) input that
 * makes an empty network namespace behave as the agent's node: upstream's restore data of a full
 * sync ({@link RestoreWriter#canonical}) plus what the agent ensures around it on a full sync
 * ({@link Augment}, upstream's {@code syncProxyRules} in {@code pkg/proxy/iptables/proxier.go}):
 * the jumps from the built-in chains ({@code iptablesJumpChains} and
 * {@code iptablesKubeletJumpChains}) as {@code -A} lines in the order upstream's prepends leave
 * them, kubelet's {@code KUBE-FIREWALL} chain, and the {@code KUBE-PROXY-CANARY} chains of
 * mangle, nat and filter that the agent's canary check looks for. The one setting that is not a
 * rule, {@code route_localnet} for localhost NodePorts, is named in a comment line
 * ({@link #ROUTE_LOCALNET}). Pure.
 */
final class Loadable {

    /** The comment line that names the sysctl localhost NodePorts need (the agent sets it). */
    static final String ROUTE_LOCALNET = "# needs: sysctl -w net.ipv4.conf.all.route_localnet=1";

    private Loadable() {
    }

    static String text(FamilyPlan p) {
        Fam f = p.fam();
        StringBuilder b = new StringBuilder();
        b.append("# kproxy iptables ruleset, ").append(f.v6() ? "IPv6" : "IPv4").append(": ").append(f.tool())
                .append("-restore input for an empty network namespace, with the jumps from the built-in chains\n");
        if (p.top().localhostNodePorts()) {
            b.append(ROUTE_LOCALNET).append(" (localhost NodePorts; the agent sets it)\n");
        }
        b.append("*mangle\n").append(Words.chainLine(Words.KUBE_PROXY_CANARY)).append('\n').append("COMMIT\n");
        List<String> filterChains = new ArrayList<>();
        if (!p.top().filterChains().contains(Words.KUBE_FIREWALL)) {
            // Upstream's EnsureChain of kubelet's chain: created empty when missing.
            filterChains.add(Words.KUBE_FIREWALL);
        }
        filterChains.add(Words.KUBE_PROXY_CANARY);
        RestoreWriter.tables(b, p, new RestoreWriter.Extra(filterChains, jumps("filter")),
                new RestoreWriter.Extra(List.of(Words.KUBE_PROXY_CANARY), jumps("nat")));
        return b.toString();
    }

    private static List<String> jumps(String table) {
        return Jumps.asInserted(table).stream().map(Jumps.Jump::saveLine).toList();
    }
}
