package io.kproxy.backend.ipvs;

import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.FamilyState;
import io.kproxy.state.NodeState;
import io.kproxy.state.ServicePortState;
import io.kproxy.state.StateDelta;
import java.util.Optional;

/**
 * NodeState to {@link IpvsPlan}, from scratch or on top of the previous plan (only the ports the
 * delta names are rendered again), with the node's {@code ipvs} settings
 * ({@code state.settings().ipvs()}: scheduler, timeouts, strict ARP, excluded CIDRs) and what the
 * backend read from the kernel ({@link HostFacts}). Pure and thread-safe.
 */
final class PlanRenderer {

    private final boolean randomFully;

    PlanRenderer(boolean randomFully) {
        this.randomFully = randomFully;
    }

    /** With nothing read from a kernel ({@link HostFacts#NONE}): what {@code kproxy render} and the history show. */
    IpvsPlan render(NodeState state) {
        return render(state, HostFacts.NONE);
    }

    IpvsPlan render(NodeState state, HostFacts facts) {
        IpvsSettings settings = IpvsSettings.of(state.settings().ipvs());
        return new IpvsPlan(family(state, IpFamily.IPV4, settings, facts), family(state, IpFamily.IPV6, settings, facts), settings, facts,
                Optional.empty());
    }

    /**
     * A node or settings change (node addresses, NodePort addresses, the detector, the mark) or
     * other {@link HostFacts} (local addresses, missing schedulers) renders everything again;
     * otherwise the delta's ports only. The previous plan's deferred
     * work carries over: the kernel still holds what it was about.
     */
    IpvsPlan renderIncremental(IpvsPlan previous, NodeState state, StateDelta delta, HostFacts facts) {
        IpvsSettings settings = IpvsSettings.of(state.settings().ipvs());
        if (delta.nodeChanged() || delta.settingsChanged() || !previous.settings().equals(settings) || !previous.facts().equals(facts)
                || !previous.v4().nodeWide().equals(nodeWide(state, IpFamily.IPV4))
                || !previous.v6().nodeWide().equals(nodeWide(state, IpFamily.IPV6))) {
            return render(state, facts).withDeferred(previous.nextDeferredWork());
        }
        FamilyPlan v4 = previous.v4();
        FamilyPlan v6 = previous.v6();
        PartRenderer r4 = new PartRenderer(state.ipv4(), settings, facts);
        PartRenderer r6 = new PartRenderer(state.ipv6(), settings, facts);
        for (ServicePortName name : delta.changedPorts()) {
            ServicePortState s4 = state.ipv4().ports().get(name);
            ServicePortState s6 = state.ipv6().ports().get(name);
            v4 = v4.with(name, s4 == null ? null : r4.render(s4));
            v6 = v6.with(name, s6 == null ? null : r6.render(s6));
        }
        return new IpvsPlan(v4, v6, settings, facts, previous.nextDeferredWork());
    }

    private FamilyPlan family(NodeState state, IpFamily f, IpvsSettings settings, HostFacts facts) {
        FamilyState fs = state.family(f);
        PartRenderer r = new PartRenderer(fs, settings, facts);
        FamilyPlan plan = FamilyPlan.empty(f, nodeWide(state, f));
        for (ServicePortState s : fs.ports().values()) {
            plan = plan.with(s.name(), r.render(s));
        }
        return plan;
    }

    private NodeWide nodeWide(NodeState state, IpFamily f) {
        return new NodeWide(state.settings().masqueradeAll(), state.settings().iptablesMasqueradeBit(), state.family(f).localDetector(),
                randomFully);
    }
}
