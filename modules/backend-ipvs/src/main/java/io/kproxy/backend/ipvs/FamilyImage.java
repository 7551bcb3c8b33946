package io.kproxy.backend.ipvs;

import io.kproxy.backend.ipvs.spi.RealServer;
import io.kproxy.backend.ipvs.spi.VirtualServer;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@link Image} of a family's plan, kept up to date per service port ({@link #with}) in
 * persistent maps, so that a plan derived from another by a few changes shares the rest and
 * costs O(change): every virtual server with the ports that claim it (the first in service-port
 * order wins, and the others are reported as conflicts, so that full and incremental renders
 * agree), and how many ports want each address and each set member (two ports of one Service
 * share the cluster IP's address, a health-check node port is the Service's). Immutable.
 */
final class FamilyImage implements Image {

    private final IpFamily family;
    private final PersistentMap<VsKey, PersistentMap<ServicePortName, VsEntry>> claims;
    private final PersistentMap<IpAddress, Integer> addressRefs;
    private final Map<IpSets, PersistentMap<String, Integer>> entryRefs;
    private final PersistentMap<ServicePortName, List<String>> outFilters;
    private final PersistentMap<VsKey, Boolean> conflicted;

    private FamilyImage(IpFamily family, PersistentMap<VsKey, PersistentMap<ServicePortName, VsEntry>> claims,
            PersistentMap<IpAddress, Integer> addressRefs, Map<IpSets, PersistentMap<String, Integer>> entryRefs,
            PersistentMap<ServicePortName, List<String>> outFilters, PersistentMap<VsKey, Boolean> conflicted) {
        this.family = family;
        this.claims = claims;
        this.addressRefs = addressRefs;
        this.entryRefs = entryRefs;
        this.outFilters = outFilters;
        this.conflicted = conflicted;
    }

    static FamilyImage empty(IpFamily family) {
        EnumMap<IpSets, PersistentMap<String, Integer>> e = new EnumMap<>(IpSets.class);
        for (IpSets s : IpSets.values()) {
            e.put(s, PersistentMap.empty());
        }
        return new FamilyImage(family, PersistentMap.empty(), PersistentMap.empty(), Collections.unmodifiableMap(e), PersistentMap.empty(),
                PersistentMap.empty());
    }

    /** This image with {@code old}'s contributions replaced by {@code next}'s (either may be null). */
    FamilyImage with(ServicePortName name, PortPart old, PortPart next) {
        var c = claims;
        var a = addressRefs;
        var k = conflicted;
        EnumMap<IpSets, PersistentMap<String, Integer>> e = new EnumMap<>(entryRefs);
        if (old != null) {
            for (VsEntry v : old.services()) {
                PersistentMap<ServicePortName, VsEntry> had = c.get(v.vs().key());
                if (had != null && had.get(name) != null) {
                    PersistentMap<ServicePortName, VsEntry> m = had.minus(name);
                    c = m.isEmpty() ? c.minus(v.vs().key()) : c.plus(v.vs().key(), m);
                    k = m.size() > 1 ? k : k.minus(v.vs().key());
                }
                if (v.bind()) {
                    a = count(a, v.vs().key().address(), -1);
                }
            }
            for (SetEntry s : old.entries()) {
                e.put(s.set(), count(e.get(s.set()), s.entry(), -1));
            }
        }
        if (next != null) {
            for (VsEntry v : next.services()) {
                PersistentMap<ServicePortName, VsEntry> m = c.get(v.vs().key());
                m = m == null ? PersistentMap.empty() : m;
                // One port naming one virtual server twice (an external IP that is also its LB IP): the first stands.
                if (m.get(name) == null) {
                    m = m.plus(name, v);
                    c = c.plus(v.vs().key(), m);
                    k = m.size() > 1 ? k.plus(v.vs().key(), true) : k;
                }
                if (v.bind()) {
                    a = count(a, v.vs().key().address(), 1);
                }
            }
            for (SetEntry s : next.entries()) {
                e.put(s.set(), count(e.get(s.set()), s.entry(), 1));
            }
        }
        var o = next == null || next.outFilter().isEmpty() ? outFilters.minus(name) : outFilters.plus(name, next.outFilter());
        return new FamilyImage(family, c, a, Collections.unmodifiableMap(e), o, k);
    }

    private static <K extends Comparable<? super K>> PersistentMap<K, Integer> count(PersistentMap<K, Integer> m, K key, int delta) {
        Integer n = m.get(key);
        int next = (n == null ? 0 : n) + delta;
        if (next < 0) {
            throw new IllegalStateException("reference count below zero for " + key);
        }
        return next == 0 ? m.minus(key) : m.plus(key, next);
    }

    private Optional<VsEntry> winner(VsKey key) {
        PersistentMap<ServicePortName, VsEntry> m = claims.get(key);
        return m == null ? Optional.empty() : Optional.of(m.values().iterator().next());
    }

    @Override
    public IpFamily family() {
        return family;
    }

    @Override
    public Optional<VirtualServer> service(VsKey key) {
        return winner(key).map(VsEntry::vs);
    }

    @Override
    public SortedMap<String, RealServer> reals(VsKey key) {
        TreeMap<String, RealServer> rs = new TreeMap<>();
        winner(key).ifPresent(w -> w.reals().forEach(r -> rs.put(r.hostPort(), r)));
        return rs;
    }

    @Override
    public Collection<VsKey> serviceKeys() {
        return claims.keySet();
    }

    @Override
    public int serviceCount() {
        return claims.size();
    }

    @Override
    public boolean bound(IpAddress address) {
        return addressRefs.get(address) != null;
    }

    @Override
    public Collection<IpAddress> addresses() {
        return addressRefs.keySet();
    }

    @Override
    public boolean member(IpSets set, String entry) {
        return entryRefs.get(set).get(entry) != null;
    }

    @Override
    public Collection<String> members(IpSets set) {
        return entryRefs.get(set).keySet();
    }

    boolean empty(IpSets set) {
        return entryRefs.get(set).isEmpty();
    }

    /** The {@code KUBE-IPVS-OUT-FILTER} rules, in service-port order. */
    List<String> outFilter() {
        List<String> out = new ArrayList<>();
        outFilters.values().forEach(out::addAll);
        return out;
    }

    @Override
    public List<String> conflicts() {
        List<String> out = new ArrayList<>();
        for (VsKey key : conflicted.keySet()) {
            var it = claims.get(key).keySet().iterator();
            ServicePortName first = it.next();
            it.forEachRemaining(other -> out.add(key + " of " + other + " is already " + first + "'s"));
        }
        return out;
    }
}
