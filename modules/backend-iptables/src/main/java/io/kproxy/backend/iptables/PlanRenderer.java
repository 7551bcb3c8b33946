package io.kproxy.backend.iptables;

import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;

/**
 * NodeState to {@link IptPlan}, from scratch or on top of the previous plan. Pure and
 * thread-safe for given {@link Features}.
 */
final class PlanRenderer {

    private final Features features;

    PlanRenderer(Features features) {
        this.features = features;
    }

    IptPlan render(NodeState state) {
        return new IptPlan(renderFamily(state, IpFamily.IPV4), renderFamily(state, IpFamily.IPV6));
    }

    /**
     * Re-renders only the ports {@code delta} names. A node or settings change renders
     * everything again, and so does a change that crosses the large-cluster threshold (every
     * fragment's comments change with it).
     */
    IptPlan renderIncremental(IptPlan previous, NodeState state, StateDelta delta) {
        if (delta.nodeChanged() || delta.settingsChanged()) {
            return render(state);
        }
        FamilyPlan v4 = update(previous.v4(), state, delta);
        FamilyPlan v6 = update(previous.v6(), state, delta);
        if (v4 == null || v6 == null) {
            return render(state);
        }
        return new IptPlan(v4, v6);
    }

    /** The family plan after {@code delta}, or null when the large-cluster mode flipped. */
    private FamilyPlan update(FamilyPlan plan, NodeState state, StateDelta delta) {
        FamilyState fs = state.family(plan.fam().family());
        FragmentRenderer r = renderer(state, plan.fam(), plan.largeCluster());
        FamilyPlan next = plan;
        for (ServicePortName name : delta.changedPorts()) {
            ServicePortState s = fs.ports().get(name);
            next = next.with(name, s == null ? null : r.render(s));
        }
        return FamilyPlan.large(next.endpoints()) == plan.largeCluster() ? next : null;
    }

    private FamilyPlan renderFamily(NodeState state, IpFamily family) {
        Fam f = Fam.of(family);
        FamilyState fs = state.family(family);
        int endpoints = 0;
        for (ServicePortState s : fs.ports().values()) {
            endpoints += s.endpoints().size();
        }
        boolean large = FamilyPlan.large(endpoints);
        FragmentRenderer r = renderer(state, f, large);
        FamilyPlan plan = FamilyPlan.empty(f, TopLevel.render(f, fs, state.settings(), features), large);
        for (ServicePortState s : fs.ports().values()) {
            plan = plan.with(s.name(), r.render(s));
        }
        return plan;
    }

    private FragmentRenderer renderer(NodeState state, Fam f, boolean large) {
        FamilyState fs = state.family(f.family());
        return new FragmentRenderer(f, state.settings().masqueradeAll(), LocalMatch.of(f, fs.localDetector()),
                fs.nodeIPs().stream().findFirst(), TopLevel.localhostNodePorts(f, fs, state.settings()), features, large);
    }
}
