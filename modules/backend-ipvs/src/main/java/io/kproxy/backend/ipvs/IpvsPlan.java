package io.kproxy.backend.ipvs;

import io.kproxy.backend.RulesetHash;
import io.kproxy.backend.ipvs.spi.VsKey;
import io.kproxy.backend.spi.MemoizedPlan;
import io.kproxy.model.IpAddress;
import io.kproxy.model.IpFamily;
import java.time.Instant;
import java.util.Optional;

/**
 * The ipvs plan: one {@link FamilyPlan} per family, the ipvs settings and {@link HostFacts} it was rendered with, and
 * when the next graceful-termination check is due (deferred work: a real server being drained is
 * deleted once it has no connections, docs/backends/ipvs.md). Immutable and thread-safe; text and
 * hash are computed once on demand, the hash from the parts' digests.
 */
final class IpvsPlan extends MemoizedPlan {

    private final FamilyPlan v4;
    private final FamilyPlan v6;
    private final IpvsSettings settings;
    private final HostFacts facts;
    private final Optional<Instant> deferred;

    IpvsPlan(FamilyPlan v4, FamilyPlan v6, IpvsSettings settings, HostFacts facts, Optional<Instant> deferred) {
        this.v4 = v4;
        this.v6 = v6;
        this.settings = settings;
        this.facts = facts;
        this.deferred = deferred;
    }

    FamilyPlan v4() {
        return v4;
    }

    FamilyPlan v6() {
        return v6;
    }

    FamilyPlan family(IpFamily f) {
        return f == IpFamily.IPV4 ? v4 : v6;
    }

    IpvsSettings settings() {
        return settings;
    }

    /** What was read from the kernel for this plan (the render's other input). */
    HostFacts facts() {
        return facts;
    }

    /** The same content with another deferred-work time (the result of a transaction). */
    IpvsPlan withDeferred(Optional<Instant> next) {
        return next.equals(deferred) ? this : new IpvsPlan(v4, v6, settings, facts, next);
    }

    @Override
    public String mode() {
        return IpvsProvider.MODE;
    }

    /**
     * Per family (IPv4 first): the node-wide block (every ipset as {@code ipset save} creates it,
     * the helper rules as {@code iptables-restore --noflush} input), then one block per service
     * port ({@link PartText}), blocks separated by blank lines; then, when the node's {@code ipvs}
     * section sets them, the IPVS timeouts and the strict-ARP sysctls (the scheduler shows on
     * every virtual server).
     */
    @Override
    protected String computeRulesetText() {
        StringBuilder b = new StringBuilder();
        for (FamilyPlan f : new FamilyPlan[] {v4, v6}) {
            b.append(f.nodeWideText()).append('\n');
            f.parts().values().forEach(p -> b.append(p.text()).append('\n'));
        }
        if (settings.setsTimeouts() || settings.strictARP()) {
            b.append("# ipvs settings\n").append(configuredText());
        }
        return b.toString();
    }

    /** The configured timeouts ({@code ipvsadm --set}, in seconds) and strict-ARP sysctls, as comment lines; "" for upstream's defaults. */
    private String configuredText() {
        StringBuilder b = new StringBuilder();
        if (settings.setsTimeouts()) {
            b.append("# ").append(settings.ipvsadmSet()).append('\n');
        }
        if (settings.strictARP()) {
            b.append("# sysctl net/ipv4/conf/all/arp_ignore=1\n# sysctl net/ipv4/conf/all/arp_announce=2\n");
        }
        return b.toString();
    }

    /**
     * One family's state as the tools load it, in sections marked by comment lines: the dummy
     * device and its addresses ({@code ip}), the virtual and real servers ({@code ipvsadm-restore}),
     * the sets ({@code ipset restore}), the helper rules ({@code iptables-restore --noflush}) with
     * the jumps from the built-in chains, and the sysctls the mode sets.
     */
    @Override
    public String loadableText(IpFamily family) {
        FamilyPlan f = family(family);
        Image img = f.image();
        StringBuilder b = new StringBuilder("# ip\nip link add ").append(PartText.DUMMY).append(" type dummy\n");
        for (IpAddress a : img.addresses()) {
            b.append(PartText.addressLine("add", a)).append('\n');
        }
        b.append("# ipvsadm-restore\n");
        for (VsKey k : img.serviceKeys()) {
            b.append(PartText.addService(img.service(k).orElseThrow())).append('\n');
            img.reals(k).values().forEach(r -> b.append(PartText.addReal(k, r)).append('\n'));
        }
        b.append("# ipset restore\n");
        for (IpSets s : IpSets.values()) {
            b.append(s.spec(family).createLine()).append('\n');
            img.members(s).forEach(e -> b.append("add ").append(s.name(family)).append(' ').append(e).append('\n'));
        }
        b.append("# ").append(family == IpFamily.IPV4 ? "iptables" : "ip6tables").append("-restore --noflush\n").append(f.iptables());
        b.append("# jumps (iptables -t <table>)\n");
        IptablesRules.JUMPS.forEach(j -> b.append("# -t ").append(j.table()).append(' ').append(j.line()).append('\n'));
        b.append("# sysctls\n");
        Sysctls.wanted(settings).forEach((k, v) -> b.append("# ").append(k).append('=').append(v).append('\n'));
        if (settings.setsTimeouts()) {
            b.append("# timeouts (tcp tcpfin udp, seconds)\n# ").append(settings.ipvsadmSet()).append('\n');
        }
        return b.toString();
    }

    @Override
    protected void hashSections(RulesetHash.Builder hash) {
        for (FamilyPlan f : new FamilyPlan[] {v4, v6}) {
            hash.section(f.nodeWideDigest(), f.parts().values().stream().map(PortPart::digest).toList());
        }
        if (settings.setsTimeouts() || settings.strictARP()) {
            // The ruleset text's settings block, so that a change of timeouts or strict ARP alone changes the hash too.
            hash.section(RulesetHash.digest(configuredText()), RulesetHash.Sum.EMPTY);
        }
    }

    @Override
    public int servicePorts() {
        return v4.parts().size() + v6.parts().size();
    }

    @Override
    public Optional<Instant> nextDeferredWork() {
        return deferred;
    }

    @Override
    public String toString() {
        return "IpvsPlan[servicePorts=" + servicePorts() + "]";
    }
}
