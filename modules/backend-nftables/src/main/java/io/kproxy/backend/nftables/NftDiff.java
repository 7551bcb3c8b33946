package io.kproxy.backend.nftables;

import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.backend.nftables.NftElement.ElementKey;
import io.kproxy.backend.nftables.NftPlan.Stale;
import io.kproxy.events.SyncKind;
import io.kproxy.netlink.NfTableObjects;
import io.kproxy.state.PersistentMap;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The transaction from the last applied plan to the desired one (upstream's
 * {@code syncProxyRules} transaction, {@code pkg/proxy/nftables/proxier.go}). Pure.
 *
 * <ul>
 *   <li>No last plan and no table in the kernel: the table is created (deleted first, in case).</li>
 *   <li>No last plan but a table in the kernel (a restart, or the sync after a failure):
 *       {@link #adopt} takes the table over in place from the names the kernel holds
 *       ({@link KernelTable}). Deleting and recreating the table instead is atomic for the rules
 *       but not for packets: while the transaction commits, the old NAT base chains are
 *       unregistered and the new ones registered, and a new connection arriving then is not
 *       DNATed and meets the new table's REJECT for a cluster IP (RestartUnderLoadIT: about one
 *       connection in 2,500 during 100 recreations). That is the fallback only when the kernel
 *       refuses the takeover (an object declared differently).</li>
 *   <li>A forced full sync, or a base ruleset whose declarations, shared containers or
 *       {@code nodeport-ips} elements changed: {@code flush table}, then every object again;
 *       affinity sets keep their entries, as upstream's full sync does. When only the rules of
 *       base chains changed (the service ranges, from ServiceCIDRs), the partial transaction
 *       flushes and rewrites just those chains ({@link BaseRuleDiff}).</li>
 *   <li>Otherwise only what changed: elements added, replaced (delete then add) or deleted, the
 *       slot elements of a dispatch among them (all of them, in the old and the new slot, when
 *       the dispatch moved; {@link SlotTable}); chains created or flushed and rewritten; endpoint
 *       maps declared when a slot first uses them; chains, verdict maps and endpoint maps no
 *       longer used are flushed now and deleted by a later sync at least a second after
 *       ({@link NftPlan#STALE_GRACE}); affinity sets no longer used are deleted at once.</li>
 * </ul>
 */
final class NftDiff {

    private NftDiff() {
    }

    static Transaction diff(Optional<NftPlan> last, NftPlan desired, SyncOptions options) {
        if (last.isEmpty()) {
            return recreate(desired);
        }
        NftPlan l = last.get();
        if (options.forceFull()) {
            return rewrite(l, desired, options.now());
        }
        var v4 = BaseRuleDiff.chainsToRewrite(l.v4().base(), desired.v4().base(), desired.v4().family().table());
        var v6 = BaseRuleDiff.chainsToRewrite(l.v6().base(), desired.v6().base(), desired.v6().family().table());
        if (v4.isEmpty() || v6.isEmpty()) {
            return rewrite(l, desired, options.now());
        }
        return partial(l, desired, options.now(), v4.get(), v6.get());
    }

    private static Transaction recreate(NftPlan desired) {
        Commands out = new Commands(Commands.fullSize(desired.v4(), desired.v6()));
        for (FamilyPlan p : List.of(desired.v4(), desired.v6())) {
            recreateFamily(out, p, desired.marker());
        }
        NftPlan result = desired.withStale(PersistentMap.empty());
        return new Transaction(NftablesProvider.MODE, SyncKind.FULL, out.operations(), out.text(), result);
    }

    private static void recreateFamily(Commands out, FamilyPlan p, String marker) {
        // "add" first so that "delete" cannot fail on a missing table.
        out.add("add table " + p.family().table());
        out.add("delete table " + p.family().table());
        NftPlan.write(out, p, false, marker);
    }

    /**
     * Whether the kernel's table ({@code kernel}, as {@link KernelTable} read it) holds exactly
     * {@code desired}'s family, as far as names tell: its generation marker is {@code desired}'s
     * ({@link NftPlan#MARKER_PREFIX}), and it holds the chains, sets and maps {@code desired}
     * declares and no other (no stale chain or map left to delete, no object someone removed).
     * The marker is written in the same atomic commit as the rules it names, so a table that
     * carries it was left by a transaction that programmed that ruleset; what the names cannot
     * show (a rule edited by hand inside a chain) is repaired by the hourly forced full sync, as
     * between any two syncs. Pure.
     */
    static boolean holds(NfTableObjects kernel, FamilyPlan desired, String marker) {
        if (!kernel.exists() || !kernel.sets().contains(marker)) {
            return false;
        }
        String t = desired.family().table();
        Set<String> chains = declared(desired.base(), "chain", t);
        chains.addAll(desired.chains().keySet());
        Set<String> sets = declared(desired.base(), "set", t);
        sets.addAll(desired.affinitySets().keySet());
        sets.add(marker);
        Set<String> maps = declared(desired.base(), "map", t);
        maps.addAll(desired.maps().keySet());
        maps.addAll(desired.endpointMaps().keySet());
        return kernel.chains().keySet().equals(chains) && kernel.sets().equals(sets) && kernel.maps().equals(maps);
    }

    /**
     * The transaction of a restart whose kernel already holds {@code desired} ({@link #holds}):
     * its tables, sets and maps declared again, nothing else. Declaring an object that exists as
     * declared changes nothing in the kernel (and one declared differently is refused: the next
     * sync then takes over); it tells the kernel port the sets' types, which it needs to encode the
     * elements of the next partial transactions (without them every one went whole through
     * libnftables: 150-380 ms each at 10,000 Services). No element, chain or rule is written. Full,
     * so that the hourly forced full sync counts from it. Pure.
     */
    static Transaction kept(NftPlan desired) {
        Commands out = new Commands();
        for (FamilyPlan p : List.of(desired.v4(), desired.v6())) {
            String t = p.family().table();
            for (String d : p.base().declarations()) {
                if (d.startsWith("add table ") || d.startsWith("add set ") || d.startsWith("add map ")) {
                    out.add(d);
                }
            }
            Commands.endpointMaps(out, p, false);
            for (NftServiceMap m : p.maps().values()) {
                out.add(Commands.mapDecl(t, m));
            }
            p.affinitySets().forEach((name, timeout) -> out.add(Commands.affinitySetDecl(t, p.family(), name, timeout)));
            out.add(NftPlan.markerDeclaration(p.family(), desired.marker()));
        }
        return new Transaction(NftablesProvider.MODE, SyncKind.FULL, out.operations(), out.text(), desired.withStale(PersistentMap.empty()));
    }

    /** Moves the generation marker from {@code last}'s to {@code desired}'s, in both tables, when the ruleset changed. */
    private static void moveMarker(Commands out, NftPlan last, NftPlan desired) {
        String was = last.marker();
        String now = desired.marker();
        if (was.equals(now)) {
            return;
        }
        for (FamilyPlan p : List.of(desired.v4(), desired.v6())) {
            out.add("delete set " + p.family().table() + " " + was);
            out.add(NftPlan.markerDeclaration(p.family(), now));
        }
    }

    /**
     * The full transaction from the kernel's tables as they are ({@code v4}, {@code v6}: what
     * {@link KernelTable} read) to {@code desired}, without deleting a table that exists:
     * {@code flush table} empties every chain; the sets and maps still wanted are declared again
     * in place and flushed (the affinity sets keep their entries), never deleted: a packet that
     * entered a chain before the commit still looks into them after it, and finds the new
     * elements. Sets no longer wanted are deleted; maps no longer wanted are flushed and, with
     * the chains no longer wanted, deleted by a later sync ({@link NftPlan#STALE_GRACE}); base
     * chains no longer declared go at once. The kernel refuses it when a chain, set or map is
     * declared differently from {@code desired}; the caller then falls back to {@link #diff} with
     * no last plan. Pure.
     */
    static Transaction adopt(NfTableObjects v4, NfTableObjects v6, NftPlan desired, Instant now) {
        Commands out = new Commands(Commands.fullSize(desired.v4(), desired.v6()));
        PersistentMap<String, Stale> stale = PersistentMap.empty();
        stale = adoptFamily(out, v4, desired.v4(), stale, now, desired.marker());
        stale = adoptFamily(out, v6, desired.v6(), stale, now, desired.marker());
        return new Transaction(NftablesProvider.MODE, SyncKind.FULL, out.operations(), out.text(), desired.withStale(stale));
    }

    private static PersistentMap<String, Stale> adoptFamily(Commands out, NfTableObjects kernel, FamilyPlan desired,
            PersistentMap<String, Stale> stale, Instant now, String marker) {
        if (!kernel.exists()) {
            recreateFamily(out, desired, marker);
            return stale;
        }
        String t = desired.family().table();
        Set<String> baseChains = declared(desired.base(), "chain", t);
        Set<String> baseSets = declared(desired.base(), "set", t);
        Set<String> baseMaps = declared(desired.base(), "map", t);
        out.add("add table " + t);
        out.add("flush table " + t);
        kernel.chains().forEach((name, hooked) -> {
            if (hooked && !baseChains.contains(name)) {
                out.add("delete chain " + t + " " + name);
            }
        });
        for (String s : kernel.sets()) {
            if (!baseSets.contains(s) && !desired.affinitySets().containsKey(s) && !s.equals(marker)) {
                out.add("delete set " + t + " " + s);   // an older generation's marker too
            }
        }
        out.add(NftPlan.markerDeclaration(desired.family(), marker));
        var next = stale;
        for (String m : kernel.maps()) {
            if (!baseMaps.contains(m) && !desired.wantsMap(m)) {
                // It still holds gotos to chains that go with it, later.
                out.add("flush map " + t + " " + m);
                next = next.plus(Stale.key(desired.family(), "map", m), new Stale(desired.family(), "map", m, now));
            }
        }
        desired.base().declarations().forEach(out::add);
        for (String c : desired.base().containers()) {
            if (kernel.sets().contains(c) || kernel.maps().contains(c)) {
                out.add("flush " + (BaseRuleset.isSet(c) ? "set " : "map ") + t + " " + c);
            }
        }
        for (String m : desired.endpointMaps().keySet()) {
            if (!NftDispatch.inBase(m)) {
                out.add(Commands.mapDecl(t, m, desired.endpointMapType(m)));
                if (kernel.maps().contains(m)) {
                    out.add("flush map " + t + " " + m);
                }
            }
        }
        desired.base().rules().forEach(out::add);
        for (PortFragment p : desired.fragments().values()) {
            Commands.fragment(out, desired, p, true);
        }
        for (var c : kernel.chains().entrySet()) {
            if (!c.getValue() && !baseChains.contains(c.getKey()) && !desired.chains().containsKey(c.getKey())) {
                next = next.plus(Stale.key(desired.family(), "chain", c.getKey()), new Stale(desired.family(), "chain", c.getKey(), now));
            }
        }
        return next;
    }

    /** The names of the {@code kind} objects the base ruleset declares. */
    private static Set<String> declared(BaseRuleset base, String kind, String table) {
        String prefix = "add " + kind + " " + table + " ";
        Set<String> out = new HashSet<>();
        for (String d : base.declarations()) {
            if (d.startsWith(prefix)) {
                out.add(d.substring(prefix.length()).split(" ", 2)[0]);
            }
        }
        return out;
    }

    private static Transaction rewrite(NftPlan last, NftPlan desired, Instant now) {
        Commands out = new Commands(Commands.fullSize(desired.v4(), desired.v6()));
        var stale = deleteDueStale(out, last.stale(), desired, now);
        stale = rewriteFamily(out, last.v4(), desired.v4(), stale, last.stale(), now);
        stale = rewriteFamily(out, last.v6(), desired.v6(), stale, last.stale(), now);
        moveMarker(out, last, desired);
        return new Transaction(NftablesProvider.MODE, SyncKind.FULL, out.operations(), out.text(), desired.withStale(stale));
    }

    private static PersistentMap<String, Stale> rewriteFamily(Commands out, FamilyPlan last, FamilyPlan desired,
            PersistentMap<String, Stale> stale, PersistentMap<String, Stale> wasStale, Instant now) {
        String t = desired.family().table();
        out.add("add table " + t);
        out.add("flush table " + t);
        // A shared set whose declaration changed (nodeport-ips appearing, vanishing, or changing
        // flags) cannot be re-added over the old one; nothing refers to it after the flush.
        for (String decl : last.base().declarations()) {
            if (decl.startsWith("add set ") && !desired.base().declarations().contains(decl)) {
                out.add("delete set " + t + " " + decl.substring(("add set " + t + " ").length()).split(" ", 2)[0]);
            }
        }
        desired.base().declarations().forEach(out::add);
        for (String c : desired.base().containers()) {
            out.add("flush " + (BaseRuleset.isSet(c) ? "set " : "map ") + t + " " + c);
        }
        Commands.endpointMaps(out, desired, true);
        desired.base().rules().forEach(out::add);
        // No rule refers to a map after the flush: one of the other kind, or a flushed stale one
        // that is wanted again, is recreated.
        for (NftServiceMap m : desired.maps().values()) {
            NftServiceMap before = last.maps().get(m.name());
            boolean otherKind = before != null && !before.type().equals(m.type());
            if (otherKind || before == null && wasStale.containsKey(Stale.key(desired.family(), "map", m.name()))) {
                out.add("delete map " + t + " " + m.name());
            }
        }
        for (var e : last.affinitySets().entrySet()) {
            Integer want = desired.affinitySets().get(e.getKey());
            if (want == null || !want.equals(e.getValue())) {
                out.add("delete set " + t + " " + e.getKey());
            }
        }
        for (PortFragment p : desired.fragments().values()) {
            Commands.fragment(out, desired, p, true);
        }
        // Chains were emptied by "flush table"; verdict maps still hold gotos.
        for (String chain : last.chains().keySet()) {
            if (!desired.chains().containsKey(chain)) {
                stale = stale.plus(Stale.key(desired.family(), "chain", chain), new Stale(desired.family(), "chain", chain, now));
            }
        }
        for (String map : last.maps().keySet()) {
            if (!desired.wantsMap(map)) {
                out.add("flush map " + t + " " + map);
                stale = stale.plus(Stale.key(desired.family(), "map", map), new Stale(desired.family(), "map", map, now));
            }
        }
        for (String map : last.endpointMaps().keySet()) {
            if (!desired.wantsMap(map)) {
                out.add("flush map " + t + " " + map);
                stale = stale.plus(Stale.key(desired.family(), "map", map), new Stale(desired.family(), "map", map, now));
            }
        }
        return dropResurrected(stale, desired);
    }

    private static Transaction partial(NftPlan last, NftPlan desired, Instant now, Map<String, List<String>> v4Base,
            Map<String, List<String>> v6Base) {
        Commands out = new Commands();
        var stale = deleteDueStale(out, last.stale(), desired, now);
        stale = partialFamily(out, last.v4(), desired.v4(), v4Base, stale, last.stale(), now);
        stale = partialFamily(out, last.v6(), desired.v6(), v6Base, stale, last.stale(), now);
        if (out.operations() > 0) {
            moveMarker(out, last, desired);
        }
        return new Transaction(NftablesProvider.MODE, SyncKind.PARTIAL, out.operations(), out.text(), desired.withStale(stale));
    }

    /** Deletes flushed objects whose grace has passed and that nothing wants again. */
    private static PersistentMap<String, Stale> deleteDueStale(Commands out, PersistentMap<String, Stale> stale, NftPlan desired,
            Instant now) {
        Instant cutoff = now.minus(NftPlan.STALE_GRACE);
        var next = stale;
        for (Stale s : stale.values()) {
            FamilyPlan fp = s.family().equals(NftFamily.V4) ? desired.v4() : desired.v6();
            boolean wanted = s.kind().equals("chain") ? fp.chains().containsKey(s.name()) : fp.wantsMap(s.name());
            if (wanted) {
                next = next.minus(s.key());
            } else if (!s.since().isAfter(cutoff)) {
                out.add("delete " + s.kind() + " " + s.family().table() + " " + s.name());
                next = next.minus(s.key());
            }
        }
        return next;
    }

    private static PersistentMap<String, Stale> dropResurrected(PersistentMap<String, Stale> stale, FamilyPlan desired) {
        var next = stale;
        for (Stale s : stale.values()) {
            if (s.family().equals(desired.family())
                    && (s.kind().equals("chain") ? desired.chains().containsKey(s.name()) : desired.wantsMap(s.name()))) {
                next = next.minus(s.key());
            }
        }
        return next;
    }

    /** @param baseChains base chains whose rules changed, with their desired rules ({@link BaseRuleDiff}) */
    private static PersistentMap<String, Stale> partialFamily(Commands out, FamilyPlan last, FamilyPlan desired,
            Map<String, List<String>> baseChains, PersistentMap<String, Stale> stale, PersistentMap<String, Stale> wasStale,
            Instant now) {
        String t = desired.family().table();
        NftFamily f = desired.family();
        List<String> elementDeletes = new ArrayList<>();
        List<String> elementAdds = new ArrayList<>();
        last.elements().diff(desired.elements(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(ElementKey key, Claims value) {
                elementAdds.add(addElement(t, value.winner()));
            }

            @Override
            public void removed(ElementKey key, Claims value) {
                elementDeletes.add(deleteElement(t, value.winner()));
            }

            @Override
            public void changed(ElementKey key, Claims before, Claims after) {
                if (!before.winner().payload().equals(after.winner().payload())) {
                    elementDeletes.add(deleteElement(t, before.winner()));
                    elementAdds.add(addElement(t, after.winner()));
                }
            }
        });
        List<NftChain> chainsToWrite = new ArrayList<>();
        List<String> chainFlushes = new ArrayList<>();
        baseChains.keySet().forEach(c -> chainFlushes.add("flush chain " + t + " " + c));
        List<String> chainAdds = new ArrayList<>();
        List<String> removedChains = new ArrayList<>();
        last.chains().diff(desired.chains(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(String key, NftChain value) {
                chainAdds.add("add chain " + t + " " + key);
                chainsToWrite.add(value);
            }

            @Override
            public void removed(String key, NftChain value) {
                chainFlushes.add("flush chain " + t + " " + key);
                removedChains.add(key);
            }

            @Override
            public void changed(String key, NftChain before, NftChain after) {
                chainFlushes.add("flush chain " + t + " " + key);
                chainsToWrite.add(after);
            }
        });
        List<String> mapFlushes = new ArrayList<>();
        List<String> mapDeletes = new ArrayList<>();
        List<String> mapAdds = new ArrayList<>();
        List<String> mapElementAdds = new ArrayList<>();
        List<String> removedMaps = new ArrayList<>();
        last.maps().diff(desired.maps(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(String key, NftServiceMap value) {
                if (wasStale.containsKey(Stale.key(f, "map", key))) {
                    // Flushed and unreferenced since, but possibly of the other kind: start afresh.
                    mapDeletes.add("delete map " + t + " " + key);
                }
                mapAdds.add(Commands.mapDecl(t, value));
                mapElementAdds.add(Commands.mapElements("add", t, key, value.entries()));
            }

            @Override
            public void removed(String key, NftServiceMap value) {
                mapFlushes.add("flush map " + t + " " + key);
                removedMaps.add(key);
            }

            @Override
            public void changed(String key, NftServiceMap before, NftServiceMap after) {
                if (!before.type().equals(after.type())) {
                    // Session affinity switched: its chain is rewritten around the new map.
                    mapDeletes.add("delete map " + t + " " + key);
                    mapAdds.add(Commands.mapDecl(t, after));
                    mapElementAdds.add(Commands.mapElements("add", t, key, after.entries()));
                    return;
                }
                elementChanges(t, key, before.entries(), after.entries(), elementDeletes, mapElementAdds);
            }
        });
        last.endpointMaps().diff(desired.endpointMaps(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(String key, Integer slots) {
                // A stale one (flushed, unreferenced) has the same declaration: declaring it again is enough.
                if (!NftDispatch.inBase(key)) {
                    mapAdds.add(Commands.mapDecl(t, key, desired.endpointMapType(key)));
                }
            }

            @Override
            public void removed(String key, Integer slots) {
                if (!NftDispatch.inBase(key)) {
                    mapFlushes.add("flush map " + t + " " + key);
                    removedMaps.add(key);
                }
            }

            @Override
            public void changed(String key, Integer before, Integer after) {
                // Another number of slots in use: the dispatches' own diff writes their elements.
            }
        });
        last.dispatches().diff(desired.dispatches(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(String key, NftDispatch value) {
                mapElementAdds.add(Commands.mapElements("add", t, value.map(), value.entries()));
            }

            @Override
            public void removed(String key, NftDispatch value) {
                if (desired.wantsMap(value.map())) {
                    elementDeletes.add(Commands.mapElements("delete", t, value.map(), value.entries()));
                }
            }

            @Override
            public void changed(String key, NftDispatch before, NftDispatch after) {
                if (!before.map().equals(after.map())) {
                    removed(key, before);
                    added(key, after);
                    return;
                }
                elementChanges(t, after.map(), before.entries(), after.entries(), elementDeletes, mapElementAdds);
            }
        });
        List<String> setDeletes = new ArrayList<>();
        List<String> setAdds = new ArrayList<>();
        last.affinitySets().diff(desired.affinitySets(), new PersistentMap.DiffVisitor<>() {
            @Override
            public void added(String key, Integer timeout) {
                setAdds.add(Commands.affinitySetDecl(t, f, key, timeout));
            }

            @Override
            public void removed(String key, Integer timeout) {
                setDeletes.add("delete set " + t + " " + key);
            }

            @Override
            public void changed(String key, Integer before, Integer after) {
                setDeletes.add("delete set " + t + " " + key);
                setAdds.add(Commands.affinitySetDecl(t, f, key, after));
            }
        });
        // Order matters inside the transaction: drop references before the objects they point
        // to change, declare objects before anything refers to them.
        elementDeletes.forEach(out::add);
        chainFlushes.forEach(out::add);
        mapFlushes.forEach(out::add);
        mapDeletes.forEach(out::add);
        setDeletes.forEach(out::add);
        setAdds.forEach(out::add);
        mapAdds.forEach(out::add);
        chainAdds.forEach(out::add);
        baseChains.values().forEach(rules -> rules.forEach(out::add));
        for (NftChain c : chainsToWrite) {
            for (String r : c.rules()) {
                out.add("add rule " + t + " " + c.name() + " " + r);
            }
        }
        mapElementAdds.forEach(out::add);
        elementAdds.forEach(out::add);
        var next = stale;
        for (String c : removedChains) {
            next = next.plus(Stale.key(f, "chain", c), new Stale(f, "chain", c, now));
        }
        for (String m : removedMaps) {
            next = next.plus(Stale.key(f, "map", m), new Stale(f, "map", m, now));
        }
        return dropResurrected(next, desired);
    }

    /** Only the elements of map {@code name} that differ: an endpoint change touches data, never a rule. */
    private static void elementChanges(String t, String name, List<NftServiceMap.Entry> before, List<NftServiceMap.Entry> after,
            List<String> deletes, List<String> adds) {
        Set<NftServiceMap.Entry> keep = new HashSet<>(after);
        Set<NftServiceMap.Entry> had = new HashSet<>(before);
        List<NftServiceMap.Entry> gone = before.stream().filter(e -> !keep.contains(e)).toList();
        List<NftServiceMap.Entry> come = after.stream().filter(e -> !had.contains(e)).toList();
        if (!gone.isEmpty()) {
            deletes.add(Commands.mapElements("delete", t, name, gone));
        }
        if (!come.isEmpty()) {
            adds.add(Commands.mapElements("add", t, name, come));
        }
    }

    static String addElement(String table, NftElement e) {
        return "add element " + table + " " + e.container() + " " + e.body();
    }

    static String deleteElement(String table, NftElement e) {
        return "delete element " + table + " " + e.container() + " { " + e.key() + " }";
    }
}
