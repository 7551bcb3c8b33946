package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The rules that link our chains into the built-in ones (upstream's {@code iptablesJumpChains}
 * and kubelet's duplicates {@code iptablesKubeletJumpChains}, {@code pkg/proxy/iptables/proxier.go}),
 * written as {@code iptables-save} prints them. Upstream ensures them with {@code iptables -C} and
 * {@code -I <chain> 1} on every full sync, in this order, so the last one ends up first.
 */
final class Jumps {

    /** One jump: {@code -A chain spec} in {@code table}. */
    record Jump(String table, String chain, String spec) {
        String saveLine() {
            return "-A " + chain + " " + spec;
        }

        String insertLine() {
            return "-I " + chain + " 1 " + spec;
        }

        String deleteLine() {
            return "-D " + chain + " " + spec;
        }

        String target() {
            return spec.substring(spec.lastIndexOf("-j ") + 3);
        }
    }

    private static final String NEW = "-m conntrack --ctstate NEW ";

    static final List<Jump> OURS = List.of(
            new Jump("filter", "INPUT", NEW + "-m comment --comment \"kubernetes externally-visible service portals\" -j KUBE-EXTERNAL-SERVICES"),
            new Jump("filter", "FORWARD", NEW + "-m comment --comment \"kubernetes externally-visible service portals\" -j KUBE-EXTERNAL-SERVICES"),
            new Jump("filter", "INPUT", "-m comment --comment \"kubernetes health check service ports\" -j KUBE-NODEPORTS"),
            new Jump("filter", "FORWARD", NEW + "-m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES"),
            new Jump("filter", "OUTPUT", NEW + "-m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES"),
            new Jump("filter", "FORWARD", "-m comment --comment \"kubernetes forwarding rules\" -j KUBE-FORWARD"),
            new Jump("filter", "INPUT", NEW + "-m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL"),
            new Jump("filter", "OUTPUT", NEW + "-m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL"),
            new Jump("filter", "FORWARD", NEW + "-m comment --comment \"kubernetes load balancer firewall\" -j KUBE-PROXY-FIREWALL"),
            new Jump("nat", "OUTPUT", "-m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES"),
            new Jump("nat", "PREROUTING", "-m comment --comment \"kubernetes service portals\" -j KUBE-SERVICES"),
            new Jump("nat", "POSTROUTING", "-m comment --comment \"kubernetes postrouting rules\" -j KUBE-POSTROUTING"));

    /** kubelet's own jumps, which kube-proxy ensures too but never removes. */
    static final List<Jump> KUBELET = List.of(new Jump("filter", "INPUT", "-j KUBE-FIREWALL"), new Jump("filter", "OUTPUT", "-j KUBE-FIREWALL"));

    /** The built-in chains in the order {@code iptables-save} prints them. */
    private static final List<String> BUILTIN = List.of("PREROUTING", "INPUT", "FORWARD", "OUTPUT", "POSTROUTING");

    private Jumps() {
    }

    /**
     * {@code table}'s jumps as a built-in chain holds them after upstream's prepends (ours, then
     * kubelet's, each {@code -I chain 1}) into chains that held none: per chain the reverse of the
     * insertion order, chains in {@code iptables-save}'s order. Written as {@code -A} lines they
     * rebuild that order in an empty namespace.
     */
    static List<Jump> asInserted(String table) {
        List<Jump> all = new ArrayList<>(OURS);
        all.addAll(KUBELET);
        Collections.reverse(all);
        return all.stream().filter(j -> j.table().equals(table)).sorted(Comparator.comparingInt(j -> BUILTIN.indexOf(j.chain()))).toList();
    }
}
