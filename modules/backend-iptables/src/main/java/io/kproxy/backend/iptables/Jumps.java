package io.kproxy.backend.iptables;

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

    private Jumps() {
    }
}
