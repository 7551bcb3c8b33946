package io.kproxy.backend.nftables;

import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.PersistentMap;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.util.ArrayList;
import java.util.List;

/**
 * NodeState to {@link NftPlan}, from scratch or on top of the previous plan. Pure and
 * thread-safe. Before Services and EndpointSlices have synced the plan holds the base tables
 * only (upstream syncs nothing then; the engine does not apply before sync either).
 */
final class PlanRenderer {

    private PlanRenderer() {
    }

    static NftPlan render(NodeState state) {
        return new NftPlan(renderFamily(state, IpFamily.IPV4), renderFamily(state, IpFamily.IPV6), PersistentMap.empty());
    }

    /**
     * Re-renders only the ports {@code delta} names; anything touching the node or the settings
     * (base ruleset, local detector, masquerading) renders everything again. Keeps the previous
     * plan's deferred work: that belongs to the kernel's history, not to the state.
     */
    static NftPlan renderIncremental(NftPlan previous, NodeState state, StateDelta delta) {
        if (delta.nodeChanged() || delta.settingsChanged()) {
            return render(state).withStale(previous.stale());
        }
        FamilyPlan v4 = previous.v4();
        FamilyPlan v6 = previous.v6();
        FragmentRenderer r4 = renderer(state, IpFamily.IPV4);
        FragmentRenderer r6 = renderer(state, IpFamily.IPV6);
        for (ServicePortName name : delta.changedPorts()) {
            v4 = update(v4, r4, state.ipv4(), name);
            v6 = update(v6, r6, state.ipv6(), name);
        }
        return new NftPlan(v4, v6, previous.stale());
    }

    private static FamilyPlan update(FamilyPlan plan, FragmentRenderer r, FamilyState fs, ServicePortName name) {
        ServicePortState s = fs.ports().get(name);
        return plan.with(name, s == null ? null : r.render(s));
    }

    private static FamilyPlan renderFamily(NodeState state, IpFamily family) {
        FamilyState fs = state.family(family);
        NftFamily f = NftFamily.of(family);
        FragmentRenderer r = renderer(state, family);
        List<PortFragment> fragments = new ArrayList<>(fs.ports().size());
        for (ServicePortState s : fs.ports().values()) {
            fragments.add(r.render(s));
        }
        return FamilyPlan.of(f, BaseRuleset.render(f, fs, state.settings()), fragments);
    }

    private static FragmentRenderer renderer(NodeState state, IpFamily family) {
        FamilyState fs = state.family(family);
        NftFamily f = NftFamily.of(family);
        return new FragmentRenderer(f, state.settings().masqueradeAll(), LocalTraffic.of(f, fs.localDetector()), fs.nodeIPs());
    }
}
