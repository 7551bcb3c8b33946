package io.kproxy.backend.nftables;

import java.util.ArrayList;
import java.util.List;

/**
 * A named per-service map, the dispatch of one policy chain ({@code service-…} or {@code local-…};
 * same name as its chain: maps and chains are separate namespaces). Two kinds:
 *
 * <ul>
 *   <li>{@link #endpoints}: a data map from a random number to {@code address . port}, used by
 *       {@code meta l4proto P dnat ip to numgen random mod M map @name} for services without
 *       session affinity. Upstream's newest layout writes the same dnat with an anonymous map and
 *       {@code mod N}; we use a named interval map and a fixed modulus {@link #MODULUS}, so that an
 *       endpoint change rewrites elements of a data map and never a rule, a chain, a jump or a
 *       goto (the kernel re-validates the whole table's jump graph when a transaction adds any of
 *       those: about 120–210 ms at 10,000 services, docs/backends/nftables.md).</li>
 *   <li>{@link #verdicts}: {@code numgen random mod N vmap @name} to the per-endpoint chains,
 *       kept for services with session affinity (their endpoint chains update the affinity sets).
 *       Named rather than upstream's anonymous map because binding thousands of anonymous maps in
 *       one transaction is quadratic in the kernel (kernel-floor.md item 2).</li>
 * </ul>
 *
 * @param name    the map's name
 * @param type    the declaration's body ({@code typeof … ; flags interval})
 * @param entries the elements in order, each {@code key : value} in nft syntax
 */
record NftServiceMap(String name, String type, List<Entry> entries) {

    /**
     * The fixed modulus of the endpoint dispatch: a power of two, so that {@code numgen random}
     * ({@code reciprocal_scale} of a 32-bit random) is exactly uniform over {@code [0, M)}. With N
     * endpoints the ranges differ in size by at most one value, so every endpoint's probability
     * is within {@code 1/M} (4.7e-10) of {@code 1/N}.
     */
    static final long MODULUS = 1L << 31;

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
     * The data is typed after the service's protocol ({@code tcp dport}, not {@code th dport}):
     * nft 1.0.6 re-evaluates a map's typeof against the rule using it and refuses
     * {@code meta l4proto sctp … map} of a {@code th dport} map.
     */
    static String endpointsType(NftFamily f, String proto) {
        return "typeof numgen random mod 1 : " + f.ipX() + " daddr . " + proto + " dport ; flags interval";
    }

    /** {@code numgen} value {@code i} goes to the i-th chain. */
    static NftServiceMap verdicts(String name, List<String> chains) {
        List<Entry> e = new ArrayList<>(chains.size());
        for (int i = 0; i < chains.size(); i++) {
            e.add(new Entry(Integer.toString(i), "goto " + chains.get(i)));
        }
        return new NftServiceMap(name, VERDICT_TYPE, e);
    }

    /**
     * {@code [0, MODULUS)} cut into {@code targets.size()} consecutive ranges whose sizes differ
     * by at most one, the i-th range going to the i-th {@code address . port}.
     */
    static NftServiceMap endpoints(NftFamily f, String proto, String name, List<String> targets) {
        int n = targets.size();
        if (n == 0) {
            throw new IllegalArgumentException("an endpoint map needs endpoints");
        }
        List<Entry> e = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long from = MODULUS * i / n;
            long to = MODULUS * (i + 1) / n - 1;
            e.add(new Entry(from + "-" + to, targets.get(i)));
        }
        return new NftServiceMap(name, endpointsType(f, proto), e);
    }
}
