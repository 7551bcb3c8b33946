package io.kproxy.backend.nftables;

import io.kproxy.backend.KernelException;
import io.kproxy.netlink.NfTableObjects;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reading what one family's {@code kube-proxy} table holds in the kernel right now
 * ({@link NfTableObjects}: names only), before the first sync of a process (or the first after a
 * failure), so that the sync can take the table over in place ({@link NftDiff#adopt}) instead of
 * deleting and recreating it. Upstream reads the same thing with {@code nft list chains}
 * ({@code pkg/proxy/nftables/proxier.go}, stale chain cleanup).
 */
final class KernelTable {

    private KernelTable() {
    }

    /** Reads one family's table; blocks. */
    @FunctionalInterface
    interface Reader {
        NfTableObjects read(NftFamily family) throws KernelException;
    }

    /**
     * Parses nft's output of {@code list chains <family>}, {@code list sets <family>} and
     * {@code list maps <family>} (every table of the family; only {@code family}'s
     * {@code kube-proxy} block counts). Pure.
     */
    static NfTableObjects parse(NftFamily family, String chainListing, String setListing, String mapListing) {
        Map<String, Boolean> chains = new LinkedHashMap<>();
        boolean exists = objects(family, chainListing, "chain", chains);
        Map<String, Boolean> sets = new LinkedHashMap<>();
        exists |= objects(family, setListing, "set", sets);
        Map<String, Boolean> maps = new LinkedHashMap<>();
        exists |= objects(family, mapListing, "map", maps);
        return exists ? new NfTableObjects(true, chains, sets.keySet(), maps.keySet()) : NfTableObjects.ABSENT;
    }

    /** Fills {@code out} with name → hooked for each {@code kind} object of our table; true when the table's block was there. */
    private static boolean objects(NftFamily family, String listing, String kind, Map<String, Boolean> out) {
        String header = "table " + family.table() + " {";
        boolean found = false;
        boolean inside = false;
        String current = null;
        for (String line : listing.split("\n")) {
            if (!line.startsWith("\t")) {
                inside = line.strip().equals(header);
                found |= inside;
                current = null;
                continue;
            }
            if (!inside) {
                continue;
            }
            if (line.startsWith("\t" + kind + " ") && line.endsWith("{") && !line.startsWith("\t\t")) {
                current = unquote(line.substring(kind.length() + 2, line.length() - 1).strip());
                out.put(current, false);
            } else if (current != null && kind.equals("chain") && line.startsWith("\t\ttype ") && line.contains(" hook ")) {
                out.put(current, true);
            }
        }
        return found;
    }

    private static String unquote(String name) {
        return name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"") ? name.substring(1, name.length() - 1) : name;
    }
}
