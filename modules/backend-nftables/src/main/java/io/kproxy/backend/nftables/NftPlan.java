package io.kproxy.backend.nftables;

import io.kproxy.backend.RulesetHash;
import io.kproxy.backend.spi.MemoizedPlan;
import io.kproxy.model.IpFamily;
import io.kproxy.state.PersistentMap;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The nftables plan: one {@link FamilyPlan} per family plus the deferred work, the service
 * chains, verdict maps and emptied endpoint maps that were flushed and are deleted once {@link #STALE_GRACE} has passed
 * (upstream keeps them in {@code staleChains}: before kernel 6.2 a chain whose last reference
 * went away is not seen as unreferenced until a moment later). Immutable and thread-safe; the
 * ruleset text and hash are computed once on demand (the hash from the fragments' digests kept in
 * the family plans, never from the text).
 */
final class NftPlan extends MemoizedPlan {

    static final Duration STALE_GRACE = Duration.ofSeconds(1);

    /**
     * The generation marker: every transaction leaves in each table one empty set named after the
     * ruleset hash of the plan it programs ({@code kproxy-ruleset-<hash>}), in the same atomic
     * commit, so that a restarted proxy can tell from the names the kernel lists that the tables
     * hold exactly the plan it rendered, and write no rule (docs/backends/nftables.md,
     * "Restart without rewriting"). The hash is {@link #rulesetHash()}, which does not cover the marker itself.
     */
    static final String MARKER_PREFIX = "kproxy-ruleset-";

    /**
     * A flushed object waiting for deletion. {@code kind} is {@code chain} or {@code map} (a
     * per-service verdict map, or a shared endpoint map that holds no slot any more).
     */
    record Stale(NftFamily family, String kind, String name, Instant since) {
        String key() {
            return key(family, kind, name);
        }

        static String key(NftFamily family, String kind, String name) {
            return family.ipX() + " " + kind + " " + name;
        }
    }

    private final FamilyPlan v4;
    private final FamilyPlan v6;
    private final PersistentMap<String, Stale> stale;

    NftPlan(FamilyPlan v4, FamilyPlan v6, PersistentMap<String, Stale> stale) {
        this.v4 = v4;
        this.v6 = v6;
        this.stale = stale;
    }

    FamilyPlan v4() {
        return v4;
    }

    FamilyPlan v6() {
        return v6;
    }

    PersistentMap<String, Stale> stale() {
        return stale;
    }

    NftPlan withStale(PersistentMap<String, Stale> next) {
        return next == stale ? this : new NftPlan(v4, v6, next);
    }

    @Override
    public String mode() {
        return NftablesProvider.MODE;
    }

    @Override
    protected String computeRulesetText() {
        Commands out = new Commands(Commands.fullSize(v4, v6));
        write(out, v4, true, marker());
        out.blank();
        write(out, v6, true, marker());
        return out.text();
    }

    /**
     * The family's table alone ({@code table ip kube-proxy} or {@code table ip6 kube-proxy}),
     * as in {@link #rulesetText()}: nftables hooks its base chains itself, so the table is all
     * the agent programs for the family and loads with {@code nft -f} as it is.
     */
    @Override
    public String loadableText(IpFamily family) {
        FamilyPlan plan = family == IpFamily.IPV4 ? v4 : v6;
        Commands out = new Commands();
        write(out, plan, true, marker());
        return out.text();
    }

    /** The name of this plan's generation marker set ({@link #MARKER_PREFIX}). */
    String marker() {
        return MARKER_PREFIX + rulesetHash();
    }

    /** The declaration of the generation marker set {@code marker} in {@code family}'s table. */
    static String markerDeclaration(NftFamily family, String marker) {
        return "add set " + family.table() + " " + marker + " { type " + family.addrType()
                + " ; comment \"generation marker: the ruleset this table holds\" ; }";
    }

    /**
     * Writes one family's whole table as {@code add} commands, optionally with a comment per
     * service port, and its generation marker last.
     */
    static void write(Commands out, FamilyPlan plan, boolean comments, String marker) {
        write(out, plan, comments);
        if (comments) {
            out.blank();
        }
        out.add(markerDeclaration(plan.family(), marker));
    }

    /**
     * Writes one family's whole table as {@code add} commands, optionally with a comment per
     * service port: the base ruleset's declarations, the shared endpoint maps, the base rules,
     * then every fragment.
     */
    static void write(Commands out, FamilyPlan plan, boolean comments) {
        plan.base().declarations().forEach(out::add);
        Commands.endpointMaps(out, plan, false);
        plan.base().rules().forEach(out::add);
        for (PortFragment p : plan.fragments().values()) {
            if (comments) {
                out.blank();
                out.comment(p.name() + " " + p.name().protocol().lowerName());
            }
            Commands.fragment(out, plan, p, false);
        }
    }

    /**
     * {@link RulesetHash} over both families (IPv4 first): each family's head is its base
     * ruleset ({@link FamilyPlan#baseDigest()}), its parts are the fragments, each digested when
     * it entered the plan ({@link Commands#partText}) and summed as it did: O(1) here. The deferred
     * deletions are not part of it: they are the kernel's history, not the desired ruleset.
     */
    @Override
    protected void hashSections(RulesetHash.Builder hash) {
        hash.section(v4.baseDigest(), v4.digestSum()).section(v6.baseDigest(), v6.digestSum());
    }

    @Override
    public int servicePorts() {
        return v4.fragments().size() + v6.fragments().size();
    }

    @Override
    public Optional<Instant> nextDeferredWork() {
        return stale.values().stream().map(Stale::since).min(Instant::compareTo).map(t -> t.plus(STALE_GRACE));
    }

    @Override
    public String toString() {
        return "NftPlan[servicePorts=" + servicePorts() + ", stale=" + stale.size() + "]";
    }
}
