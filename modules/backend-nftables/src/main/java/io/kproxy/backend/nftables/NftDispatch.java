package io.kproxy.backend.nftables;

import io.kproxy.model.ServicePortName;
import java.util.ArrayList;
import java.util.List;

/**
 * The endpoint dispatch of one policy chain ({@code service-…} or {@code local-…}) of a service
 * port without session affinity: one slot of a shared interval data map
 * {@code endpoints-<proto>-<m>} (typeof {@code numgen random mod 1 : ip daddr . tcp dport}), used
 * by the chain's rule
 * {@code meta l4proto tcp dnat ip to numgen random mod 16777216 offset <o> map @endpoints-tcp-<m>}.
 *
 * <p>A slot is {@link #SLOT_SIZE} consecutive numgen values starting at {@link #offset()}; a map
 * holds {@link SlotTable#SLOTS_PER_MAP} slots. The slot's values are cut into one range per
 * endpoint, in order, whose sizes differ by at most one. {@code numgen random} over a
 * power-of-two modulus is exactly uniform (the kernel's {@code reciprocal_scale} of a 32-bit
 * random is its top 24 bits), so each of N endpoints is picked with a probability within
 * {@code 2^-24} (6.0e-8) of {@code 1/N}: a relative error of at most {@code N / 2^24}
 * (3.0e-4 for 5,000 endpoints). An endpoint change rewrites elements of the shared map and nothing
 * else; only a move of the slot ({@link SlotTable}) rewrites the rule. Many Services in one map,
 * rather than a map per Service, keep the table's list of sets short, which the kernel walks by
 * name for every new set and every rule naming one (docs/backends/nftables.md, deviation 4).
 * Immutable.
 *
 * @param owner    the service port
 * @param chain    the policy chain whose rule dispatches
 * @param proto    {@code tcp}, {@code udp} or {@code sctp}
 * @param position the chain's position in its protocol's {@link SlotTable}
 * @param targets  the endpoints, {@code address . port}, in order; not empty
 */
record NftDispatch(ServicePortName owner, String chain, String proto, int position, List<String> targets) {

    /** numgen values per slot: {@code 2^24}. */
    static final long SLOT_SIZE = 1L << 24;

    NftDispatch {
        targets = List.copyOf(targets);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a dispatch needs endpoints");
        }
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
    }

    /** The name of the shared map holding the slot. */
    String map() {
        return mapName(proto, position / SlotTable.SLOTS_PER_MAP);
    }

    static String mapName(String proto, int index) {
        return "endpoints-" + proto + "-" + index;
    }

    /** The protocols, each with endpoint maps of its own (the data is typed after the protocol). */
    static final List<String> PROTOCOLS = List.of("tcp", "udp", "sctp");

    /**
     * True for the first endpoint map of a protocol ({@code endpoints-tcp-0}), which the base
     * ruleset always declares; the others are declared while a slot uses them.
     */
    static boolean inBase(String map) {
        return map.startsWith("endpoints-") && map.endsWith("-0");
    }

    /** The first numgen value of the slot. */
    long offset() {
        return (position % SlotTable.SLOTS_PER_MAP) * SLOT_SIZE;
    }

    /** The chain's dispatch rule. */
    String rule(NftFamily f) {
        return "meta l4proto " + proto + " dnat " + f.ipX() + " to numgen random mod " + SLOT_SIZE + " offset " + offset() + " map @"
                + map();
    }

    /** The slot's elements: {@code [offset, offset + 2^24)} cut into one range per target. */
    List<NftServiceMap.Entry> entries() {
        int n = targets.size();
        long base = offset();
        List<NftServiceMap.Entry> e = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long from = base + SLOT_SIZE * i / n;
            long to = base + SLOT_SIZE * (i + 1) / n - 1;
            e.add(new NftServiceMap.Entry(from + "-" + to, targets.get(i)));
        }
        return e;
    }
}
