package io.kproxy.backend.ipvs;

import io.kproxy.backend.RulesetHash;
import io.kproxy.model.IpFamily;
import io.kproxy.model.ServicePortName;
import io.kproxy.state.PersistentMap;

/**
 * One family's desired ipvs state: every service port's {@link PortPart} and the
 * {@link FamilyImage} they add up to, both persistent (a plan derived by a few {@link #with}
 * calls shares the rest, and costs O(change)), and the node-wide inputs of the helper rules,
 * whose text is derived once, on first demand. Immutable and thread-safe (two threads racing on
 * the first derivation compute equal values).
 */
final class FamilyPlan {

    private final IpFamily family;
    private final NodeWide nodeWide;
    private final PersistentMap<ServicePortName, PortPart> parts;
    private final FamilyImage image;
    private volatile String iptables;

    private FamilyPlan(IpFamily family, NodeWide nodeWide, PersistentMap<ServicePortName, PortPart> parts, FamilyImage image) {
        this.family = family;
        this.nodeWide = nodeWide;
        this.parts = parts;
        this.image = image;
    }

    /** A plan without service ports. */
    static FamilyPlan empty(IpFamily family, NodeWide nodeWide) {
        return new FamilyPlan(family, nodeWide, PersistentMap.empty(), FamilyImage.empty(family));
    }

    IpFamily family() {
        return family;
    }

    NodeWide nodeWide() {
        return nodeWide;
    }

    PersistentMap<ServicePortName, PortPart> parts() {
        return parts;
    }

    /** This plan with {@code name}'s part replaced, or removed when {@code next} is null. */
    FamilyPlan with(ServicePortName name, PortPart next) {
        PortPart old = parts.get(name);
        if (old == null && next == null || old != null && old.equals(next)) {
            return this;
        }
        return new FamilyPlan(family, nodeWide, next == null ? parts.minus(name) : parts.plus(name, next), image.with(name, old, next));
    }

    FamilyImage image() {
        return image;
    }

    /** The family's {@code iptables-restore} input ({@link IptablesRules}). */
    String iptables() {
        String t = iptables;
        if (t == null) {
            t = IptablesRules.render(image, nodeWide.masqueradeAll(), nodeWide.masqueradeBit(), nodeWide.detector(), nodeWide.randomFully());
            iptables = t;
        }
        return t;
    }

    /** The family's node-wide block of the ruleset text: its sets, then its iptables rules. */
    String nodeWideText() {
        StringBuilder b = new StringBuilder("# ").append(family == IpFamily.IPV4 ? "IPv4" : "IPv6").append(" ipsets (ipset save)\n");
        for (IpSets s : IpSets.values()) {
            b.append(s.spec(family).createLine()).append('\n');
        }
        b.append("# ").append(family == IpFamily.IPV4 ? "iptables-restore" : "ip6tables-restore").append(" --noflush\n");
        b.append(iptables());
        image.conflicts().forEach(c -> b.append("# conflict: ").append(c).append('\n'));
        return b.toString();
    }

    RulesetHash.Digest nodeWideDigest() {
        return RulesetHash.digest(nodeWideText());
    }
}
