package io.kproxy.backend.nftables;

import io.kproxy.backend.RulesetHash;
import io.kproxy.backend.RulesetHash.Digest;
import io.kproxy.backend.nftables.NftElement.ElementKey;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One family's desired table: the base ruleset, every service port's fragment, the positions of
 * the endpoint dispatches in the shared endpoint maps ({@link Slots}), and indexes of the objects
 * those fragments hold (chains, verdict maps, dispatches by chain, the shared endpoint maps with
 * how many dispatches each holds, affinity sets, shared elements) and each fragment's digest
 * for {@link NftPlan#rulesetHash()} (taken once, when the fragment enters the plan) with their sum,
 * so that the hash of a plan derived by a few {@link #with} calls costs O(change). All maps
 * are persistent, so a plan derived from another by a few {@link #with} calls shares everything
 * else with it and the diff of the two visits only what changed. Immutable.
 */
record FamilyPlan(
        NftFamily family,
        BaseRuleset base,
        PersistentMap<ServicePortName, PortFragment> fragments,
        PersistentMap<String, NftChain> chains,
        PersistentMap<String, NftServiceMap> maps,
        PersistentMap<String, NftDispatch> dispatches,
        PersistentMap<String, Integer> endpointMaps,
        Slots slots,
        PersistentMap<String, Integer> affinitySets,
        PersistentMap<ElementKey, Claims> elements,
        PersistentMap<ServicePortName, Digest> digests,
        RulesetHash.Sum digestSum) {

    static FamilyPlan empty(NftFamily family, BaseRuleset base) {
        return new FamilyPlan(family, base, PersistentMap.empty(), PersistentMap.empty(), PersistentMap.empty(), PersistentMap.empty(),
                PersistentMap.empty(), Slots.EMPTY, PersistentMap.empty(), PersistentMap.empty(), PersistentMap.empty(),
                RulesetHash.Sum.EMPTY);
    }

    /** The digest of {@code p}'s part of the ruleset hash: its text as {@link Commands#partText} writes it. */
    static Digest digest(NftFamily family, PortFragment p) {
        return RulesetHash.digest(Commands.partText(family, p));
    }

    /**
     * The plan holding {@code inOrder} (distinct service ports, ascending, rendered with
     * {@code slots}) whose {@link #digest}s are {@code digests}, in the same order, and whose
     * chains and claims on shared elements are in {@code runs} ({@link #sortedRuns} of consecutive
     * ranges of {@code inOrder}, in its order; one or two): equal to {@link #with} applied to each in
     * turn on {@link #empty}, without its bookkeeping for replaced fragments (the full render of
     * 10,000 Services). With {@code fork} the claims map is built on a second core while this thread
     * builds the rest ({@link Forked}); the plan is the same.
     */
    static FamilyPlan of(NftFamily family, BaseRuleset base, List<PortFragment> inOrder, List<Digest> digests, List<Runs> runs,
            Slots slots, boolean fork) {
        int n = inOrder.size();
        if (digests.size() != n) {
            throw new IllegalArgumentException("a digest for each fragment: " + digests.size() + " for " + n);
        }
        if (runs.isEmpty() || runs.size() > 2) {
            throw new IllegalArgumentException("one or two runs, not " + runs.size());
        }
        Forked<PersistentMap<ElementKey, Claims>> forked = fork ? Forked.start(() -> claims(runs)) : null;
        PersistentMap<String, NftServiceMap> mp = PersistentMap.empty();
        PersistentMap<String, NftDispatch> ds = PersistentMap.empty();
        Map<String, Integer> em = new HashMap<>();
        PersistentMap<String, Integer> af = PersistentMap.empty();
        ServicePortName[] names = new ServicePortName[n];
        int i = 0;
        for (PortFragment p : inOrder) {
            names[i++] = p.name();
            for (NftServiceMap m : p.maps()) {
                mp = mp.plus(m.name(), m);
            }
            for (NftDispatch d : p.dispatches()) {
                ds = ds.plus(d.chain(), d);
                em.merge(d.map(), 1, Integer::sum);
            }
            for (Map.Entry<String, Integer> a : p.affinitySets().entrySet()) {
                af = af.plus(a.getKey(), a.getValue());
            }
        }
        // the ports ascend, and the chains come sorted: these maps are built in one pass each
        // (PersistentMap.ofSorted), not by inserts
        PersistentMap<ServicePortName, PortFragment> fr = PersistentMap.ofSorted(names, inOrder.toArray(new PortFragment[0]), n);
        PersistentMap<ServicePortName, Digest> dg = PersistentMap.ofSorted(names, digests.toArray(new Digest[0]), n);
        PersistentMap<String, NftChain> ch = chains(runs);
        PersistentMap<ElementKey, Claims> claims = forked == null ? claims(runs) : forked.join();
        return new FamilyPlan(family, base, fr, ch, mp, ds, PersistentMap.copyOf(em), slots, af, claims, dg, RulesetHash.Sum.of(digests));
    }

    /** One fragment's claim on a shared element; ordered by the element's key alone. */
    record Claimed(ElementKey key, ServicePortName owner, NftElement element) implements Comparable<Claimed> {
        @Override
        public int compareTo(Claimed o) {
            return key.compareTo(o.key);
        }
    }

    /** What {@link #sortedRuns} gives for one range of fragments. */
    record Runs(Claimed[] claims, NftChain[] chains) {
    }

    /**
     * The claims on shared elements and the chains of fragments {@code from} (inclusive) to
     * {@code to} of {@code inOrder}, each sorted by key (element key, chain name); the claims on one
     * key, or chains of one name, stay in the order the fragments list them (stable sorts). Sorts of
     * what the fragments give as it comes, not of a hash map's entries or by inserts into a
     * persistent map: a hash map scatters the order the fragments give and its entries sort through
     * an extra indirection (4 s of a 9-second render at 100,000 Services), and a sorted run on each
     * core merges in one pass (docs/benchmarks.md, "Fifteenth pass").
     */
    static Runs sortedRuns(List<PortFragment> inOrder, int from, int to) {
        int elements = 0;
        int chains = 0;
        for (int i = from; i < to; i++) {
            elements += inOrder.get(i).elements().size();
            chains += inOrder.get(i).chains().size();
        }
        Claimed[] claimed = new Claimed[elements];
        NftChain[] chained = new NftChain[chains];
        int e = 0;
        int c = 0;
        for (int i = from; i < to; i++) {
            PortFragment p = inOrder.get(i);
            for (NftElement el : p.elements()) {
                claimed[e++] = new Claimed(el.id(), p.name(), el);
            }
            for (NftChain ch : p.chains()) {
                chained[c++] = ch;
            }
        }
        Arrays.sort(claimed); // stable
        Arrays.sort(chained, (x, y) -> x.name().compareTo(y.name())); // stable
        return new Runs(claimed, chained);
    }

    /**
     * Every shared element of the runs with the ports that claim it, the runs merged in key order
     * (equal keys from the first run first, as its fragments come first) and each key's claims
     * added in that order, as {@link #with} adds them fragment by fragment.
     */
    static PersistentMap<ElementKey, Claims> claims(List<Runs> runs) {
        return merged(runs, Runs::claims, Claimed::key, c -> Claims.of(c.owner(), c.element()), (had, c) -> had.plus(c.owner(), c.element()));
    }

    /**
     * Every chain of the runs by name, merged in name order; of two chains of one name the later
     * one in fragment order is kept, as {@link #with} would keep it.
     */
    static PersistentMap<String, NftChain> chains(List<Runs> runs) {
        return merged(runs, Runs::chains, NftChain::name, c -> c, (had, c) -> c);
    }

    /**
     * The map of the one or two sorted runs {@code part} picks from {@code runs}, merged in key
     * order (of equal keys, the first run's first): an entry's value is {@code first} of the
     * first item with its key, folded with {@code again} over the others in that order.
     */
    private static <T, K extends Comparable<? super K>, V> PersistentMap<K, V> merged(List<Runs> runs, Function<Runs, T[]> part,
            Function<T, K> key, Function<T, V> first, BiFunction<V, T, V> again) {
        T[] a = part.apply(runs.get(0));
        T[] b = runs.size() < 2 ? Arrays.copyOf(a, 0) : part.apply(runs.get(1));
        @SuppressWarnings("unchecked")
        K[] keys = (K[]) new Comparable<?>[a.length + b.length];
        @SuppressWarnings("unchecked")
        V[] values = (V[]) new Object[keys.length];
        int n = 0;
        int i = 0;
        int j = 0;
        while (i < a.length || j < b.length) {
            T next = j == b.length || i < a.length && key.apply(a[i]).compareTo(key.apply(b[j])) <= 0 ? a[i++] : b[j++];
            K k = key.apply(next);
            if (n > 0 && keys[n - 1].compareTo(k) == 0) {
                values[n - 1] = again.apply(values[n - 1], next);
            } else {
                keys[n] = k;
                values[n++] = first.apply(next);
            }
        }
        return PersistentMap.ofSorted(keys, values, n);
    }

    /** This plan with {@code next} as its slot tables (the fragments must already be rendered with them). */
    FamilyPlan withSlots(Slots next) {
        return next == slots ? this
                : new FamilyPlan(family, base, fragments, chains, maps, dispatches, endpointMaps, next, affinitySets, elements, digests,
                        digestSum);
    }

    /** True when a per-service verdict map or a shared endpoint map of this name is wanted. */
    boolean wantsMap(String name) {
        return maps.containsKey(name) || endpointMaps.containsKey(name) || NftDispatch.inBase(name);
    }

    /** The type of shared endpoint map {@code name} ({@code endpoints-<proto>-<m>}). */
    String endpointMapType(String name) {
        return NftServiceMap.endpointsType(family, name.substring("endpoints-".length(), name.lastIndexOf('-')));
    }

    /** The digest of this family's node-wide part: the base ruleset's commands, as {@link NftPlan#rulesetText()} writes them. */
    Digest baseDigest() {
        StringBuilder b = new StringBuilder();
        base.declarations().forEach(l -> b.append(l).append('\n'));
        base.rules().forEach(l -> b.append(l).append('\n'));
        return RulesetHash.digest(b);
    }

    /** This plan with {@code name}'s fragment replaced by {@code next}, or removed when {@code next} is null. */
    FamilyPlan with(ServicePortName name, PortFragment next) {
        PortFragment old = fragments.get(name);
        if (old == null && next == null || old != null && old.equals(next)) {
            return this;
        }
        var ch = chains;
        var mp = maps;
        var ds = dispatches;
        var em = endpointMaps;
        var af = affinitySets;
        var el = elements;
        Set<String> keepChains = new HashSet<>();
        Set<String> keepMaps = new HashSet<>();
        Set<ElementKey> keepElements = new HashSet<>();
        if (next != null) {
            next.chains().forEach(c -> keepChains.add(c.name()));
            next.maps().forEach(m -> keepMaps.add(m.name()));
            next.elements().forEach(e -> keepElements.add(e.id()));
        }
        if (old != null) {
            for (NftChain c : old.chains()) {
                if (!keepChains.contains(c.name())) {
                    ch = ch.minus(c.name());
                }
            }
            for (NftServiceMap m : old.maps()) {
                if (!keepMaps.contains(m.name())) {
                    mp = mp.minus(m.name());
                }
            }
            for (NftDispatch d : old.dispatches()) {
                if (next != null && next.dispatches().contains(d)) {
                    continue;
                }
                ds = ds.minus(d.chain());
                int left = em.get(d.map()) - 1;
                em = left == 0 ? em.minus(d.map()) : em.plus(d.map(), left);
            }
            for (String set : old.affinitySets().keySet()) {
                if (next == null || !next.affinitySets().containsKey(set)) {
                    af = af.minus(set);
                }
            }
            for (NftElement e : old.elements()) {
                if (!keepElements.contains(e.id())) {
                    Claims c = el.get(e.id());
                    Claims rest = c == null ? null : c.minus(name);
                    el = rest == null ? el.minus(e.id()) : el.plus(e.id(), rest);
                }
            }
        }
        if (next != null) {
            for (NftChain c : next.chains()) {
                ch = ch.plus(c.name(), c);
            }
            for (NftServiceMap m : next.maps()) {
                mp = mp.plus(m.name(), m);
            }
            for (NftDispatch d : next.dispatches()) {
                if (old != null && old.dispatches().contains(d)) {
                    continue;
                }
                ds = ds.plus(d.chain(), d);
                Integer had = em.get(d.map());
                em = em.plus(d.map(), had == null ? 1 : had + 1);
            }
            for (Map.Entry<String, Integer> s : next.affinitySets().entrySet()) {
                af = af.plus(s.getKey(), s.getValue());
            }
            for (NftElement e : next.elements()) {
                Claims c = el.get(e.id());
                el = el.plus(e.id(), c == null ? Claims.of(name, e) : c.plus(name, e));
            }
        }
        var fr = next == null ? fragments.minus(name) : fragments.plus(name, next);
        Digest digest = next == null ? null : digest(family, next);
        var dg = next == null ? digests.minus(name) : digests.plus(name, digest);
        return new FamilyPlan(family, base, fr, ch, mp, ds, em, slots, af, el, dg, digestSum.replace(digests.get(name), digest));
    }
}
