package io.kproxy.backend.nftables;

import io.kproxy.state.PersistentMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Where each endpoint dispatch of one family and protocol sits in the shared endpoint maps
 * ({@link NftDispatch}): a position {@code p} is slot {@code p mod 256} of map
 * {@code endpoints-<proto>-<p / 256>}. Immutable and thread-safe; persistent (every update
 * shares what it did not touch with the table it came from).
 *
 * <p>The positions are a pure function of the set of dispatch names, whatever the order in
 * which dispatches came and went (the plan is compared with the kernel after any history:
 * {@code render --at}, audit, rollback): canonical ordered linear probing without wrap-around.
 * With {@code T} = {@link #capacity} of the count, dispatch {@code d}'s home is
 * {@link #hash}{@code (d) mod T}; the dispatches sorted by (home, name) take
 * {@code position_i = max(home_i, position_{i-1} + 1)}, so positions may run a little past
 * {@code T}. Adding a dispatch shifts the run of occupied positions from where it lands up to the
 * first free one; removing one shifts back the run after it up to a dispatch at its home (the
 * classic insertion and backward-shift deletion, which keep that canonical form). Only when the
 * count crosses a power of two does {@code T} change and every dispatch move: a pure function of
 * the count cannot have hysteresis (one count would need two capacities), so a count that goes
 * back and forth over {@code 2^k} (129, 257, … dispatches of one protocol) rewrites them each
 * time (docs/backends/nftables.md, deviation 4).
 */
final class SlotTable {

    /** Slots per map: {@code 2^32 / 2^24}, every slot {@link NftDispatch#SLOT_SIZE} numgen values. */
    static final int SLOTS_PER_MAP = 256;

    private static final SlotTable EMPTY = new SlotTable(capacity(0), PersistentMap.empty(), PersistentMap.empty());

    private final long capacity;
    private final PersistentMap<String, Integer> byName;
    private final PersistentMap<Integer, String> byPosition;

    private SlotTable(long capacity, PersistentMap<String, Integer> byName, PersistentMap<Integer, String> byPosition) {
        this.capacity = capacity;
        this.byName = byName;
        this.byPosition = byPosition;
    }

    static SlotTable empty() {
        return EMPTY;
    }

    /** {@code T}: the smallest power of two at least twice {@code count}, and at least one map's slots (256). */
    static long capacity(int count) {
        long t = SLOTS_PER_MAP;
        while (t < 2L * count) {
            t <<= 1;
        }
        return t;
    }

    /**
     * The dispatch's stable hash: the chain name's own hash, the eight base32 characters after
     * {@code service-} or {@code local-} (the first 40 bits of SHA-256 of
     * {@code ns/svc/proto/portName}, {@code ChainNames.nftHashAndTruncate}, the same in every JVM),
     * as an unsigned number. The two chains of one port share it and sort by name.
     */
    static long hash(String chain) {
        int dash = chain.indexOf('-');
        if (dash < 0 || chain.length() < dash + 9) {
            throw new IllegalArgumentException("not a policy chain name: " + chain);
        }
        long h = 0;
        for (int i = dash + 1; i <= dash + 8; i++) {
            char c = chain.charAt(i);
            int v;
            if (c >= 'A' && c <= 'Z') {
                v = c - 'A';
            } else if (c >= '2' && c <= '7') {
                v = c - '2' + 26;
            } else {
                throw new IllegalArgumentException("not a policy chain name: " + chain);
            }
            h = h << 5 | v;
        }
        return h;
    }

    /** The table holding exactly {@code names} (distinct), built from scratch. */
    static SlotTable of(Collection<String> names) {
        return of(names, false);
    }

    /**
     * {@link #of(Collection)}; with {@code fork}, from {@link Forked#FROM_PORTS} names, the map by
     * name is built on a second core while this thread builds the one by position.
     */
    static SlotTable of(Collection<String> names, boolean fork) {
        long cap = capacity(names.size());
        record Homed(long home, String name) {
        }
        List<Homed> sorted = new ArrayList<>(names.size());
        for (String n : names) {
            sorted.add(new Homed(hash(n) & (cap - 1), n));
        }
        sorted.sort((a, b) -> a.home() != b.home() ? Long.compare(a.home(), b.home()) : a.name().compareTo(b.name()));
        int n = sorted.size();
        Integer[] positions = new Integer[n];
        String[] byPositionNames = new String[n];
        long last = -1;
        for (int i = 0; i < n; i++) {
            Homed h = sorted.get(i);
            long p = Math.max(h.home(), last + 1);
            positions[i] = Math.toIntExact(p);
            byPositionNames[i] = h.name();
            last = p;
        }
        Supplier<PersistentMap<String, Integer>> byName = () -> {
            PersistentMap<String, Integer> bn = PersistentMap.empty();
            for (int i = 0; i < n; i++) {
                bn = bn.plus(byPositionNames[i], positions[i]);
            }
            return bn;
        };
        Forked<PersistentMap<String, Integer>> forked = fork && n >= Forked.FROM_PORTS ? Forked.start(byName) : null;
        // the positions ascend with the sort: that map is built in one pass, not by inserts
        PersistentMap<Integer, String> bp = PersistentMap.ofSorted(positions, byPositionNames, n);
        return new SlotTable(cap, forked == null ? byName.get() : forked.join(), bp);
    }

    int size() {
        return byName.size();
    }

    long capacity() {
        return capacity;
    }

    /** The position of {@code name}; it must be in the table. */
    int position(String name) {
        Integer p = byName.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no slot for " + name);
        }
        return p;
    }

    /** Name to position, ascending by name. */
    Map<String, Integer> positions() {
        return byName;
    }

    private long home(String name) {
        return hash(name) & (capacity - 1);
    }

    /** True when {@code a} sorts before ({@code home}, {@code name}). */
    private boolean before(String a, long home, String name) {
        long ha = home(a);
        return ha != home ? ha < home : a.compareTo(name) < 0;
    }

    /** This table with {@code name} added; every dispatch whose position changed (the new one too) is added to {@code moved}. */
    SlotTable plus(String name, Set<String> moved) {
        if (byName.containsKey(name)) {
            return this;
        }
        if (capacity(size() + 1) != capacity) {
            List<String> all = new ArrayList<>(byName.keySet());
            all.add(name);
            return rebuilt(all, moved);
        }
        long h = home(name);
        int j = Math.toIntExact(h);
        String o = byPosition.get(j);
        while (o != null && before(o, h, name)) {
            o = byPosition.get(++j);
        }
        var bp = byPosition;
        var bn = byName;
        String carry = name;
        while (carry != null) {
            String displaced = bp.get(j);
            bp = bp.plus(j, carry);
            bn = bn.plus(carry, j);
            moved.add(carry);
            carry = displaced;
            j++;
        }
        return new SlotTable(capacity, bn, bp);
    }

    /** This table without {@code name}; every remaining dispatch whose position changed is added to {@code moved}. */
    SlotTable minus(String name, Set<String> moved) {
        Integer p = byName.get(name);
        if (p == null) {
            return this;
        }
        if (capacity(size() - 1) != capacity) {
            List<String> rest = new ArrayList<>(byName.keySet());
            rest.remove(name);
            return rebuilt(rest, moved);
        }
        var bp = byPosition.minus(p);
        var bn = byName.minus(name);
        int hole = p;
        for (int j = p + 1;; j++) {
            String o = bp.get(j);
            if (o == null || home(o) > hole) {
                break;
            }
            bp = bp.minus(j).plus(hole, o);
            bn = bn.plus(o, hole);
            moved.add(o);
            hole = j;
        }
        return new SlotTable(capacity, bn, bp);
    }

    private SlotTable rebuilt(List<String> names, Set<String> moved) {
        SlotTable next = of(names);
        next.byName.forEach((n, pos) -> {
            if (!pos.equals(byName.get(n))) {
                moved.add(n);
            }
        });
        return next;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SlotTable t && t.capacity == capacity && t.byName.equals(byName);
    }

    @Override
    public int hashCode() {
        return byName.hashCode();
    }

    @Override
    public String toString() {
        return "SlotTable[capacity=" + capacity + ", size=" + size() + "]";
    }
}
