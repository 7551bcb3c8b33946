package io.kproxy.backend.nftables;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.IntStream;

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
 *       one transaction is quadratic in the kernel (docs/kernel-floor.md item 2).</li>
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
        // Interned: one string per family and protocol, not one per map (10,000 at 10,000 Services).
        return ("typeof numgen random mod 1 : " + f.ipX() + " daddr . " + proto + " dport ; flags interval").intern();
    }

    /** Range keys, and verdict indexes, are shared by every map with the same number of endpoints up to this many. */
    private static final int SHARED_UP_TO = 64;
    private static final AtomicReferenceArray<List<String>> RANGES = new AtomicReferenceArray<>(SHARED_UP_TO + 1);
    private static final List<String> INDEXES = IntStream.range(0, SHARED_UP_TO).mapToObj(Integer::toString).toList();

    /** The keys of {@code n} endpoints' ranges, {@code "from-to"}; the same list for every map of that size. */
    private static List<String> ranges(int n) {
        if (n > SHARED_UP_TO) {
            return computeRanges(n);
        }
        List<String> r = RANGES.get(n);
        if (r == null) {
            RANGES.compareAndSet(n, null, computeRanges(n));
            r = RANGES.get(n);
        }
        return r;
    }

    private static List<String> computeRanges(int n) {
        List<String> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add((MODULUS * i / n) + "-" + (MODULUS * (i + 1) / n - 1));
        }
        return List.copyOf(keys);
    }

    /** {@code numgen} value {@code i} goes to the i-th chain. */
    static NftServiceMap verdicts(String name, List<String> chains) {
        List<Entry> e = new ArrayList<>(chains.size());
        for (int i = 0; i < chains.size(); i++) {
            e.add(new Entry(i < SHARED_UP_TO ? INDEXES.get(i) : Integer.toString(i), "goto " + chains.get(i)));
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
        List<String> keys = ranges(n);
        List<Entry> e = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            e.add(new Entry(keys.get(i), targets.get(i)));
        }
        return new NftServiceMap(name, endpointsType(f, proto), e);
    }
}
