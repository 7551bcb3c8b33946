package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code --cleanup} writes for one family (upstream's {@code CleanupLeftovers},
 * {@code pkg/proxy/iptables/proxier.go}): every rule that jumps to one of our chains is deleted,
 * then our chains are flushed and deleted: filter {@code KUBE-SERVICES},
 * {@code KUBE-EXTERNAL-SERVICES}, {@code KUBE-FORWARD}, {@code KUBE-NODEPORTS},
 * {@code KUBE-PROXY-FIREWALL}; nat {@code KUBE-SERVICES}, {@code KUBE-NODEPORTS},
 * {@code KUBE-POSTROUTING}, the service chains, and {@code KUBE-MARK-MASQ} unless a chain we do
 * not own still jumps to it; the canaries. kubelet's {@code KUBE-FIREWALL} stays. Pure.
 */
final class Cleanup {

    static final List<String> FILTER = List.of(Words.KUBE_SERVICES, Words.KUBE_EXTERNAL_SERVICES, Words.KUBE_FORWARD, Words.KUBE_NODEPORTS,
            Words.KUBE_PROXY_FIREWALL, Words.KUBE_PROXY_CANARY);
    static final List<String> NAT = List.of(Words.KUBE_SERVICES, Words.KUBE_NODEPORTS, Words.KUBE_POSTROUTING, Words.KUBE_PROXY_CANARY);

    private Cleanup() {
    }

    /** The restore input removing our objects from a kernel whose dump is {@code kernel}; empty when there is nothing. */
    static String text(SaveDump kernel) {
        StringBuilder b = new StringBuilder();
        Set<String> filter = present(kernel, "filter", FILTER);
        table(b, kernel, "filter", filter);
        Set<String> nat = present(kernel, "nat", NAT);
        kernel.chains("nat").stream().filter(Words::isServiceChain).sorted().forEach(nat::add);
        if (kernel.chains("nat").contains(Words.KUBE_MARK_MASQ)) {
            boolean usedElsewhere = kernel.rules("nat").stream()
                    .anyMatch(r -> SaveDump.targetOf(r).equals(Words.KUBE_MARK_MASQ) && !nat.contains(SaveDump.chainOf(r)));
            if (!usedElsewhere) {
                nat.add(Words.KUBE_MARK_MASQ);
            }
        }
        table(b, kernel, "nat", nat);
        table(b, kernel, "mangle", present(kernel, "mangle", List.of(Words.KUBE_PROXY_CANARY)));
        return b.toString();
    }

    /** For a port that cannot read the kernel: declares (creates or flushes) and deletes our top-level chains. */
    static String blind() {
        StringBuilder b = new StringBuilder();
        for (Fam f : List.of(Fam.V4, Fam.V6)) {
            b.append(f.header()).append('\n');
            blindTable(b, "filter", FILTER);
            blindTable(b, "nat", NAT);
            blindTable(b, "mangle", List.of(Words.KUBE_PROXY_CANARY));
        }
        return b.toString();
    }

    private static void blindTable(StringBuilder b, String table, List<String> chains) {
        b.append('*').append(table).append('\n');
        chains.forEach(c -> b.append(Words.chainLine(c)).append('\n'));
        chains.forEach(c -> b.append("-X ").append(c).append('\n'));
        b.append("COMMIT\n");
    }

    private static Set<String> present(SaveDump kernel, String table, List<String> ours) {
        Set<String> out = new LinkedHashSet<>();
        for (String c : ours) {
            if (kernel.chains(table).contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static void table(StringBuilder b, SaveDump kernel, String table, Set<String> ours) {
        if (ours.isEmpty()) {
            return;
        }
        List<String> deletes = new ArrayList<>();
        for (String r : kernel.rules(table)) {
            if (ours.contains(SaveDump.targetOf(r)) && !ours.contains(SaveDump.chainOf(r))) {
                deletes.add("-D " + r.substring(3));
            }
        }
        b.append('*').append(table).append('\n');
        ours.forEach(c -> b.append(Words.chainLine(c)).append('\n'));
        deletes.forEach(d -> b.append(d).append('\n'));
        ours.forEach(c -> b.append("-X ").append(c).append('\n'));
        b.append("COMMIT\n");
    }
}
