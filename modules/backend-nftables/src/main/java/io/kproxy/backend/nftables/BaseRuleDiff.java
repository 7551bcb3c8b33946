package io.kproxy.backend.nftables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which base chains to rewrite in a partial transaction when two base rulesets differ only in
 * the rules of some chains: the service ranges' "Drop traffic to unallocated ClusterIPs" rule in
 * {@code cluster-ips-check}, which follows the ServiceCIDRs (upstream's
 * {@code OnServiceCIDRsChanged}, {@code pkg/proxy/nftables/proxier.go}). Flushing such a chain
 * and adding its rules again inside the sync's one transaction is atomic, and leaves the
 * services' chains, maps and elements alone; anything else that differs in the base (a
 * declaration, a shared container, the {@code nodeport-ips} elements) still needs the full
 * rewrite. Pure.
 */
final class BaseRuleDiff {

    private BaseRuleDiff() {
    }

    /**
     * The chains whose rules differ, each with its desired {@code add rule} commands in order
     * (empty: the chain is only flushed); an empty map when the bases are equal; empty when
     * something other than chain rules differs.
     */
    static Optional<Map<String, List<String>>> chainsToRewrite(BaseRuleset last, BaseRuleset desired, String table) {
        if (!last.declarations().equals(desired.declarations()) || !last.containers().equals(desired.containers())) {
            return Optional.empty();
        }
        String prefix = "add rule " + table + " ";
        if (!others(last, prefix).equals(others(desired, prefix))) {
            return Optional.empty();
        }
        Map<String, List<String>> before = byChain(last, prefix);
        Map<String, List<String>> after = byChain(desired, prefix);
        Map<String, List<String>> changed = new LinkedHashMap<>();
        for (String chain : after.keySet()) {
            if (!after.get(chain).equals(before.get(chain))) {
                changed.put(chain, after.get(chain));
            }
        }
        for (String chain : before.keySet()) {
            if (!after.containsKey(chain)) {
                changed.put(chain, List.of());
            }
        }
        return Optional.of(changed);
    }

    private static List<String> others(BaseRuleset b, String prefix) {
        return b.rules().stream().filter(r -> !r.startsWith(prefix)).toList();
    }

    private static Map<String, List<String>> byChain(BaseRuleset b, String prefix) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String r : b.rules()) {
            if (r.startsWith(prefix)) {
                int space = r.indexOf(' ', prefix.length());
                String chain = r.substring(prefix.length(), space < 0 ? r.length() : space);
                out.computeIfAbsent(Objects.requireNonNull(chain), k -> new ArrayList<>()).add(r);
            }
        }
        return out;
    }
}
