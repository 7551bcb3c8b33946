package io.kproxy.backend.iptables;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Writes {@code iptables-restore} input. Two layouts:
 * <ul>
 *   <li>{@link #canonical}: upstream's {@code iptablesData} of a full sync (one {@code *filter}
 *       and one {@code *nat} block), what {@code kproxy render} prints ({@link Loadable} adds
 *       what the agent ensures around it through {@link #tables});</li>
 *   <li>{@link #transaction}: what a sync applies. The same lines in blocks a tool can run one
 *       after the other: the masquerade mark chain first (the service chains jump to it), the
 *       services' own chains in blocks of whole services (never more than
 *       {@link #BLOCK_CHAINS} chains a block), then the filter table, then the top-level nat
 *       chains with the stale-chain deletions. Read as one input the blocks are equivalent to
 *       upstream's; {@code iptables-nft} may run them as separate restores (see {@link Script}).</li>
 * </ul>
 * Pure; not thread-safe (builds into the given builder).
 */
final class RestoreWriter {

    /** Chains created per block: iptables-nft-restore --noflush is quadratic in chains x rules of one run. */
    static final int BLOCK_CHAINS = 1000;

    private RestoreWriter() {
    }

    static void canonical(StringBuilder b, FamilyPlan p) {
        b.append(p.fam().header()).append('\n');
        tables(b, p, Extra.NONE, Extra.NONE);
    }

    /**
     * Lines a table block holds besides upstream's restore data ({@link Loadable}).
     *
     * @param chains chains declared after ours
     * @param rules  rules written before ours (the jumps from the built-in chains)
     */
    record Extra(List<String> chains, List<String> rules) {
        static final Extra NONE = new Extra(List.of(), List.of());

        Extra {
            chains = List.copyOf(chains);
            rules = List.copyOf(rules);
        }
    }

    /** The {@code *filter} and {@code *nat} blocks of {@link #canonical}, each with its {@link Extra} lines. */
    static void tables(StringBuilder b, FamilyPlan p, Extra filter, Extra nat) {
        TopLevel t = p.top();
        b.append("*filter\n");
        t.filterChains().forEach(c -> line(b, Words.chainLine(c)));
        filter.chains().forEach(c -> line(b, Words.chainLine(c)));
        filter.rules().forEach(l -> line(b, l));
        t.filterHead().forEach(l -> line(b, l));
        for (PortFragment fr : p.fragments().values()) {
            fr.filter().forEach(l -> line(b, l));
        }
        t.filterTail().forEach(l -> line(b, l));
        b.append("COMMIT\n*nat\n");
        TopLevel.NAT_CHAINS.forEach(c -> line(b, Words.chainLine(c)));
        for (PortFragment fr : p.fragments().values()) {
            fr.chains().forEach(c -> line(b, Words.chainLine(c)));
        }
        nat.chains().forEach(c -> line(b, Words.chainLine(c)));
        nat.rules().forEach(l -> line(b, l));
        t.natHead().forEach(l -> line(b, l));
        for (PortFragment fr : p.fragments().values()) {
            fr.natTop().forEach(l -> line(b, l));
            fr.natRules().forEach(l -> line(b, l));
        }
        t.natTail().forEach(l -> line(b, l));
        b.append("COMMIT\n");
    }

    /**
     * One family's part of a transaction: every top-level chain rewritten, the own chains of
     * {@code write}, the {@code stale} chains flushed and deleted, and on a full sync the
     * {@code KUBE-PROXY-CANARY} chains (mangle, nat, filter) that {@code Backend.rulesIntact}
     * looks for.
     *
     * @return the number of operations (chain, rule and delete lines)
     */
    static int transaction(StringBuilder b, FamilyPlan p, Collection<PortFragment> write, Collection<String> stale, boolean full) {
        int start = b.length();
        TopLevel t = p.top();
        b.append(p.fam().header()).append('\n');
        if (full) {
            b.append("*mangle\n");
            line(b, Words.chainLine(Words.KUBE_PROXY_CANARY));
            b.append("COMMIT\n");
        }
        b.append("*nat\n");
        line(b, Words.chainLine(Words.KUBE_MARK_MASQ));
        t.natHead().stream().filter(l -> l.startsWith("-A KUBE-MARK-MASQ ")).forEach(l -> line(b, l));
        b.append("COMMIT\n");
        List<PortFragment> block = new ArrayList<>();
        int chains = 0;
        for (PortFragment fr : write) {
            if (fr.chains().isEmpty()) {
                continue;
            }
            if (!block.isEmpty() && chains + fr.chains().size() > BLOCK_CHAINS) {
                serviceBlock(b, block);
                block.clear();
                chains = 0;
            }
            block.add(fr);
            chains += fr.chains().size();
        }
        if (!block.isEmpty()) {
            serviceBlock(b, block);
        }
        b.append("*filter\n");
        t.filterChains().forEach(c -> line(b, Words.chainLine(c)));
        if (full) {
            line(b, Words.chainLine(Words.KUBE_PROXY_CANARY));
        }
        t.filterHead().forEach(l -> line(b, l));
        for (PortFragment fr : p.fragments().values()) {
            fr.filter().forEach(l -> line(b, l));
        }
        t.filterTail().forEach(l -> line(b, l));
        b.append("COMMIT\n*nat\n");
        TopLevel.NAT_CHAINS.stream().filter(c -> !c.equals(Words.KUBE_MARK_MASQ)).forEach(c -> line(b, Words.chainLine(c)));
        if (full) {
            line(b, Words.chainLine(Words.KUBE_PROXY_CANARY));
        }
        stale.forEach(c -> line(b, Words.chainLine(c)));
        t.natHead().stream().filter(l -> !l.startsWith("-A KUBE-MARK-MASQ ")).forEach(l -> line(b, l));
        for (PortFragment fr : p.fragments().values()) {
            fr.natTop().forEach(l -> line(b, l));
        }
        stale.forEach(c -> line(b, "-X " + c));
        t.natTail().forEach(l -> line(b, l));
        b.append("COMMIT\n");
        return operations(b.substring(start));
    }

    private static void serviceBlock(StringBuilder b, List<PortFragment> block) {
        b.append("*nat\n");
        for (PortFragment fr : block) {
            fr.chains().forEach(c -> line(b, Words.chainLine(c)));
        }
        for (PortFragment fr : block) {
            fr.natRules().forEach(l -> line(b, l));
        }
        b.append("COMMIT\n");
    }

    private static void line(StringBuilder b, String l) {
        b.append(l).append('\n');
    }

    /** Chain, rule, insert and delete lines of a restore text. */
    static int operations(String text) {
        int n = 0;
        for (String l : text.split("\n")) {
            if (l.startsWith(":") || l.startsWith("-")) {
                n++;
            }
        }
        return n;
    }
}
