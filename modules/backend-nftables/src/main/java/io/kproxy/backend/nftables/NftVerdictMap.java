package io.kproxy.backend.nftables;

import java.util.List;

/**
 * A named per-service verdict map for {@code numgen random mod N vmap @name}: element {@code i}
 * is {@code goto} the i-th endpoint chain. Upstream writes an anonymous map inline in the rule;
 * we name it (same name as its chain, maps and chains are separate namespaces) because binding
 * thousands of anonymous maps in one transaction is quadratic in the kernel (kernel-floor.md item 2),
 * and because an endpoint change then rewrites map elements instead of adding an anonymous set.
 */
record NftVerdictMap(String name, List<String> targets) {

    NftVerdictMap {
        targets = List.copyOf(targets);
    }

    /** The declaration's body: the key type is numgen's 32-bit integer. */
    static final String TYPE = "typeof numgen random mod 1 : verdict";
}
