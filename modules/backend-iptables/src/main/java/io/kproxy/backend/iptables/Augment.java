package io.kproxy.backend.iptables;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a full sync adds after looking at the kernel ({@code iptables-save} just before the
 * restore): the jump rules from the built-in chains that are missing (upstream's
 * {@code EnsureChain}/{@code EnsureRule(Prepend)} loop on full syncs), kubelet's
 * {@code KUBE-FIREWALL} chain when it does not exist yet, and the stale service chains of an
 * earlier run that no plan knows about (upstream deletes {@code KUBE-SVC-}/{@code SVL-}/{@code EXT-}/
 * {@code FW-}/{@code SEP-} chains found in {@code iptables-save} that it did not write). Pure
 * apart from editing the given section.
 */
final class Augment {

    private Augment() {
    }

    /** Edits {@code section} in place; returns a one-line summary for the log. */
    static String apply(Script.Section section, SaveDump kernel, FamilyPlan desired) {
        Set<String> wanted = new LinkedHashSet<>();
        for (PortFragment fr : desired.fragments().values()) {
            wanted.addAll(fr.chains());
        }
        Set<String> declared = new LinkedHashSet<>();
        for (Script.Block b : section.blocks()) {
            if (b.table().equals("nat")) {
                b.lines().stream().filter(l -> l.startsWith(":")).forEach(l -> declared.add(l.substring(1).split(" ", 2)[0]));
            }
        }
        List<String> stale = kernel.chains("nat").stream().filter(Words::isServiceChain).filter(c -> !wanted.contains(c))
                .filter(c -> !declared.contains(c)).sorted().toList();
        Script.Block nat = section.last("nat");
        stale.forEach(c -> nat.lines().add(Words.chainLine(c)));
        stale.forEach(c -> nat.lines().add("-X " + c));

        int jumps = 0;
        boolean hasFirewall = kernel.chains("filter").contains(Words.KUBE_FIREWALL) || desired.top().filterChains().contains(Words.KUBE_FIREWALL);
        Script.Block filter = section.last("filter");
        if (!hasFirewall) {
            // Upstream's EnsureChain: create kubelet's chain if missing, never flush it.
            filter.lines().add(Words.chainLine(Words.KUBE_FIREWALL));
        }
        for (List<Jumps.Jump> list : List.of(Jumps.OURS, Jumps.KUBELET)) {
            for (Jumps.Jump j : list) {
                if (!kernel.hasRule(j.table(), j.saveLine())) {
                    section.last(j.table()).lines().add(j.insertLine());
                    jumps++;
                }
            }
        }
        return "staleChains=" + stale.size() + " jumpsAdded=" + jumps + " kubeFirewallCreated=" + !hasFirewall;
    }
}
