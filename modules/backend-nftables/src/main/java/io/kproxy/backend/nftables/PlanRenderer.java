package io.kproxy.backend.nftables;

import io.kproxy.backend.ChainNames;
import io.kproxy.backend.RulesetHash.Digest;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * NodeState to {@link NftPlan}, from scratch or on top of the previous plan. Pure and
 * thread-safe. Before Services and EndpointSlices have synced the plan holds the base tables
 * only (upstream syncs nothing then; the engine does not apply before sync either).
 *
 * <p>A fragment depends on its port and on the positions of its dispatches ({@link SlotTable}),
 * which depend on the set of all dispatches of its protocol: the incremental render updates the
 * slot tables first and then renders the changed ports and the ports whose dispatches moved.
 */
final class PlanRenderer {

    private PlanRenderer() {
    }

    static NftPlan render(NodeState state) {
        return new NftPlan(renderFamily(state, IpFamily.IPV4), renderFamily(state, IpFamily.IPV6), PersistentMap.empty());
    }

    /**
     * Re-renders only the ports {@code delta} names, and those whose dispatch moved to make room
     * or to close a gap (a few, unless the count of a protocol's dispatches crossed a power of two);
     * anything touching the node or the settings (base ruleset, local detector, masquerading)
     * renders everything again. Keeps the previous plan's deferred work: that belongs to the
     * kernel's history, not to the state.
     */
    static NftPlan renderIncremental(NftPlan previous, NodeState state, StateDelta delta) {
        if (delta.nodeChanged() || delta.settingsChanged()) {
            return render(state).withStale(previous.stale());
        }
        FamilyPlan v4 = update(previous.v4(), state, IpFamily.IPV4, delta.changedPorts());
        FamilyPlan v6 = update(previous.v6(), state, IpFamily.IPV6, delta.changedPorts());
        return new NftPlan(v4, v6, previous.stale());
    }

    private static FamilyPlan update(FamilyPlan plan, NodeState state, IpFamily family, Set<ServicePortName> changed) {
        FamilyState fs = state.family(family);
        Slots slots = plan.slots();
        Set<String> moved = new HashSet<>();
        Map<ServicePortName, String> bases = new HashMap<>();
        for (ServicePortName name : changed) {
            PortFragment old = plan.fragments().get(name);
            ServicePortState s = fs.ports().get(name);
            List<String> had = old == null ? List.of() : old.dispatches().stream().map(NftDispatch::chain).toList();
            List<String> want = List.of();
            if (s != null) {
                String base = ChainNames.nftServicePortBase(name);
                bases.put(name, base);
                want = FragmentRenderer.dispatchChains(s, base);
            }
            String proto = name.protocol().lowerName();
            for (String c : had) {
                if (!want.contains(c)) {
                    slots = slots.with(proto, slots.table(proto).minus(c, moved));
                }
            }
            for (String c : want) {
                if (!had.contains(c)) {
                    slots = slots.with(proto, slots.table(proto).plus(c, moved));
                }
            }
        }
        Set<ServicePortName> toRender = new TreeSet<>(changed);
        for (String chain : moved) {
            NftDispatch d = plan.dispatches().get(chain);
            if (d != null) {
                toRender.add(d.owner());
            }
        }
        FragmentRenderer r = renderer(state, family, slots);
        for (ServicePortName name : toRender) {
            ServicePortState s = fs.ports().get(name);
            String base = bases.get(name);
            plan = plan.with(name, s == null ? null : base == null ? r.render(s) : r.render(s, base));
        }
        return plan.withSlots(slots);
    }

    private static FamilyPlan renderFamily(NodeState state, IpFamily family) {
        FamilyState fs = state.family(family);
        return renderFamily(state, family, Forked.worthIt(fs.ports().size()));
    }

    /**
     * The whole family's plan. With {@code fork} the ports' chain names are found, and their
     * fragments rendered, half on a second core, and {@link FamilyPlan#of} splits its work too
     * ({@link Forked}): the plan is the same.
     */
    static FamilyPlan renderFamily(NodeState state, IpFamily family, boolean fork) {
        FamilyState fs = state.family(family);
        NftFamily f = NftFamily.of(family);
        int n = fs.ports().size();
        ServicePortState[] ports = fs.ports().values().toArray(new ServicePortState[0]);
        String[] bases = new String[n];
        String[][] dispatches = new String[n][];
        int half = fork ? n / 2 : 0;
        Forked<Void> named = fork ? Forked.start(() -> name(ports, bases, dispatches, 0, half)) : null;
        name(ports, bases, dispatches, half, n);
        if (named != null) {
            named.join();
        }
        Map<String, List<String>> chains = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (dispatches[i].length > 0) {
                chains.computeIfAbsent(ports[i].name().protocol().lowerName(), p -> new ArrayList<>()).addAll(Arrays.asList(dispatches[i]));
            }
        }
        Slots slots = Slots.of(chains, fork);
        FragmentRenderer r = renderer(state, family, slots);
        PortFragment[] fragments = new PortFragment[n];
        Digest[] digests = new Digest[n];
        Forked<FamilyPlan.Runs> first = fork ? Forked.start(() -> render(f, r, ports, bases, fragments, digests, 0, half)) : null;
        FamilyPlan.Runs upper = render(f, r, ports, bases, fragments, digests, half, n);
        List<FamilyPlan.Runs> runs = first == null ? List.of(upper) : List.of(first.join(), upper);
        return FamilyPlan.of(f, BaseRuleset.render(f, fs, state.settings()), Arrays.asList(fragments), Arrays.asList(digests), runs, slots,
                fork);
    }

    /** The chain name base (a SHA-256 each) and the dispatching chains of ports {@code from} to {@code to}. */
    private static Void name(ServicePortState[] ports, String[] bases, String[][] dispatches, int from, int to) {
        for (int i = from; i < to; i++) {
            bases[i] = ChainNames.nftServicePortBase(ports[i].name());
            dispatches[i] = FragmentRenderer.dispatchChains(ports[i], bases[i]).toArray(new String[0]);
        }
        return null;
    }

    /**
     * Renders ports {@code from} to {@code to}, digests each fragment's text as it goes and returns
     * the range's claims on shared elements and chains sorted ({@link FamilyPlan#sortedRuns}): the
     * digests (SHA-256 of each part's text) and the claims' sort were most of a forked render's
     * time when one thread took them for every fragment after both had rendered
     * (docs/benchmarks.md, "Fifteenth pass").
     */
    private static FamilyPlan.Runs render(NftFamily f, FragmentRenderer r, ServicePortState[] ports, String[] bases,
            PortFragment[] into, Digest[] digests, int from, int to) {
        for (int i = from; i < to; i++) {
            PortFragment p = r.render(ports[i], bases[i]);
            into[i] = p;
            digests[i] = FamilyPlan.digest(f, p);
        }
        return FamilyPlan.sortedRuns(Arrays.asList(into), from, to);
    }

    private static FragmentRenderer renderer(NodeState state, IpFamily family, Slots slots) {
        FamilyState fs = state.family(family);
        NftFamily f = NftFamily.of(family);
        return new FragmentRenderer(f, state.settings().masqueradeAll(), LocalTraffic.of(f, fs.localDetector()), fs.nodeIPs(), slots);
    }
}
