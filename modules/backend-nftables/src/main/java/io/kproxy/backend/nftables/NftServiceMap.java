package io.kproxy.backend.nftables;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A named per-service verdict map, the dispatch of one policy chain ({@code service-…} or
 * {@code local-…}) of a service with session affinity: {@code numgen random mod N vmap @name} to
 * the per-endpoint chains (which update the affinity sets). Same name as its chain: maps and
 * chains are separate namespaces. Named rather than upstream's anonymous map because binding
 * thousands of anonymous maps in one transaction is quadratic in the kernel
 * (docs/kernel-floor.md item 2). Services without session affinity dispatch through a slot of a
 * shared data map instead ({@link NftDispatch}); {@link Entry} and {@link #endpointsType} serve
 * both.
 *
 * @param name    the map's name
 * @param type    the declaration's body ({@code typeof … })
 * @param entries the elements in order, each {@code key : value} in nft syntax
 */
record NftServiceMap(String name, String type, List<Entry> entries) {

    /** One element: key and value in nft syntax. */
    record Entry(String key, String value) {
        String text() {
            return key + " : " + value;
        }
    }

    NftServiceMap {
        entries = List.copyOf(entries);
    }

    static final String VERDICT_TYPE = "typeof numgen random mod 1 : verdict";

    /**
     * The shared endpoint maps' data is typed after the protocol ({@code tcp dport}, not {@code th dport}):
     * nft 1.0.6 re-evaluates a map's typeof against the rule using it and refuses
     * {@code meta l4proto sctp … map} of a {@code th dport} map.
     */
    static String endpointsType(NftFamily f, String proto) {
        // Interned: one string per family and protocol, not one per map.
        return ("typeof numgen random mod 1 : " + f.ipX() + " daddr . " + proto + " dport ; flags interval").intern();
    }

    /** Verdict indexes are shared by every map up to this many endpoints. */
    private static final int SHARED_UP_TO = 64;
    private static final List<String> INDEXES = IntStream.range(0, SHARED_UP_TO).mapToObj(Integer::toString).toList();

    /** {@code numgen} value {@code i} goes to the i-th chain. */
    static NftServiceMap verdicts(String name, List<String> chains) {
        List<Entry> e = new ArrayList<>(chains.size());
        for (int i = 0; i < chains.size(); i++) {
            e.add(new Entry(i < SHARED_UP_TO ? INDEXES.get(i) : Integer.toString(i), "goto " + chains.get(i)));
        }
        return new NftServiceMap(name, VERDICT_TYPE, e);
    }
}
