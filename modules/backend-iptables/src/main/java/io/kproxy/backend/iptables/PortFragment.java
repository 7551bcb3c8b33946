package io.kproxy.backend.iptables;

import io.kproxy.model.ServicePortName;
import java.util.List;

/**
 * Everything one service port contributes to its family's tables, as upstream's
 * {@code syncProxyRules} loop body writes it: rules of the top-level chains (which every sync
 * rewrites) and its own nat chains (which a partial sync writes only when they changed). A pure
 * value; equal fragments render equal text.
 *
 * @param name       the service port
 * @param filter     its rules in the filter table's top-level chains ({@code KUBE-SERVICES},
 *                   {@code KUBE-EXTERNAL-SERVICES}, {@code KUBE-NODEPORTS}, {@code KUBE-PROXY-FIREWALL})
 * @param natTop     its rules in the nat table's {@code KUBE-SERVICES} and {@code KUBE-NODEPORTS}
 * @param chains     its own nat chains ({@code KUBE-EXT-}, {@code KUBE-FW-}, {@code KUBE-SVC-},
 *                   {@code KUBE-SVL-}, {@code KUBE-SEP-}) in upstream's declaration order
 * @param natRules   the rules of those chains, in upstream's order
 * @param endpoints  how many endpoints the port has (upstream's large-cluster count)
 */
record PortFragment(ServicePortName name, List<String> filter, List<String> natTop, List<String> chains, List<String> natRules,
        int endpoints) {

    PortFragment {
        filter = List.copyOf(filter);
        natTop = List.copyOf(natTop);
        chains = List.copyOf(chains);
        natRules = List.copyOf(natRules);
    }

    /**
     * The text this fragment's digest is taken of ({@link io.kproxy.backend.RulesetHash}): a
     * comment naming the port, then its lines as the canonical ruleset writes them, each list
     * under a marker line of its own.
     */
    String partText() {
        StringBuilder b = new StringBuilder("# ").append(name).append(' ').append(name.protocol().lowerName()).append('\n');
        FamilyPlan.section(b, "*filter", filter);
        FamilyPlan.section(b, "*nat chains", chains.stream().map(Words::chainLine).toList());
        FamilyPlan.section(b, "*nat top", natTop);
        FamilyPlan.section(b, "*nat rules", natRules);
        return b.toString();
    }

    /** Same own chains and rules: a partial sync need not rewrite them. */
    boolean sameChains(PortFragment other) {
        return other != null && chains.equals(other.chains) && natRules.equals(other.natRules);
    }
}
