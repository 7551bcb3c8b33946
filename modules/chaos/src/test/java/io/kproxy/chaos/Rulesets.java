package io.kproxy.chaos;

import io.kproxy.testkit.NetNs;
import io.kproxy.testkit.NftListing;

/**
 * The convergence comparison. The kernel's table is read with {@code nft list table ip
 * kube-proxy} in the node's namespace; a render ({@code kproxy render}, nft commands) is
 * loaded with {@code nft -f} into a scratch namespace of the runner's and listed the same way,
 * so both sides are the kernel's own listing, and then put in a canonical order (the order of a
 * table's sets, maps and chains and of set elements is the kernel's, not part of what the rules
 * do). Not thread-safe (one scratch namespace).
 */
final class Rulesets {

    private final NetNs node;
    private final NetNs scratch;
    private final boolean iptables;

    /** @param mode {@code nftables} or {@code iptables}: which listing both sides are compared by */
    Rulesets(NetNs node, NetNs scratch, String mode) {
        this.node = node;
        this.scratch = scratch;
        this.iptables = mode.equals("iptables");
    }

    /**
     * The node's IPv4 kube-proxy table (nftables mode) or IPv4 {@code iptables-save} (iptables
     * mode), normalised; empty when there is none.
     */
    String kernel() {
        if (iptables) {
            NetNs.Result r = node.tryExecWithInput(null, "iptables-save");
            return r.exitCode() == 0 ? IptablesListing.canonical(r.stdout()) : "";
        }
        NetNs.Result r = node.tryExecWithInput(null, "nft", "list", "table", "ip", "kube-proxy");
        return r.exitCode() == 0 ? NftListing.canonical(r.stdout()) : "";
    }

    /**
     * {@code rendered} (nft commands, or {@code iptables-restore} input in iptables mode) as the
     * kernel lists it after loading it into the empty scratch namespace, normalised; or an error line.
     */
    String loaded(String rendered) {
        scratch.exec("nft", "flush", "ruleset");
        if (iptables) {
            // iptables-nft's tables are nftables tables: the flush above empties them too.
            NetNs.Result load = scratch.tryExecWithInput(rendered, "iptables-restore");
            if (load.exitCode() != 0) {
                return "(render does not load: " + load.stderr().strip() + ")";
            }
            NetNs.Result r = scratch.tryExecWithInput(null, "iptables-save");
            return r.exitCode() == 0 ? IptablesListing.canonical(r.stdout()) : "";
        }
        NetNs.Result load = scratch.tryExecWithInput(rendered, "nft", "-f", "-");
        if (load.exitCode() != 0) {
            return "(render does not load: " + load.stderr().strip() + ")";
        }
        NetNs.Result r = scratch.tryExecWithInput(null, "nft", "list", "table", "ip", "kube-proxy");
        return r.exitCode() == 0 ? NftListing.canonical(r.stdout()) : "";
    }

    /**
     * A listing without the {@code flags owner} line and owner's comment of a table someone took
     * ({@link KernelRefusal}), and with counters at zero (packets flow while it is compared with itself).
     */
    static String withoutOwner(String listing) {
        return listing.lines().filter(l -> !l.strip().equals("flags owner"))
                .map(l -> l.replaceAll("counter packets [0-9]+ bytes [0-9]+", "counter").replaceAll(" # progname \\S+$", ""))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    /** The first line where {@code a} and {@code b} differ, for a violation's detail. */
    static String firstDifference(String a, String b) {
        String[] x = a.split("\n");
        String[] y = b.split("\n");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String l = i < x.length ? x[i] : "(end)";
            String r = i < y.length ? y[i] : "(end)";
            if (!l.equals(r)) {
                return "line " + (i + 1) + ": [" + l.strip() + "] vs [" + r.strip() + "]";
            }
        }
        return "equal";
    }
}
