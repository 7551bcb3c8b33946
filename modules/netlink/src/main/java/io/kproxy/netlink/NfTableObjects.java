package io.kproxy.netlink;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The names of what one nf_tables table holds: as {@link NfTablesClient#objects} reads them with
 * netlink dumps ({@code NFT_MSG_GETCHAIN}, {@code NFT_MSG_GETSET}: no rules and no set elements,
 * which is what makes it cheap on a table of 10,000 services; nft's {@code list sets} reads every
 * element), or as a caller parses them from nft's listings. Anonymous sets are left out.
 * Immutable.
 *
 * @param exists whether the table exists
 * @param chains chain name → whether it is a base chain (has a hook)
 * @param sets   the named sets that are not maps
 * @param maps   the named maps
 */
public record NfTableObjects(boolean exists, Map<String, Boolean> chains, Set<String> sets, Set<String> maps) {

    /** No such table. */
    public static final NfTableObjects ABSENT = new NfTableObjects(false, Map.of(), Set.of(), Set.of());

    public NfTableObjects {
        chains = Collections.unmodifiableMap(new LinkedHashMap<>(chains));
        sets = Collections.unmodifiableSet(new LinkedHashSet<>(sets));
        maps = Collections.unmodifiableSet(new LinkedHashSet<>(maps));
    }
}
