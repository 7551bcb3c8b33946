package io.kproxy.backend;

import io.kproxy.model.IpFamily;
import java.time.Instant;
import java.util.Optional;

/**
 * What a backend wants the kernel to hold for one {@code NodeState}: the output of the pure
 * {@link Backend#render}. Immutable and thread-safe; implementations are backend-specific and
 * share structure with the plan they were derived from, so keeping the last applied plan is cheap.
 *
 * <p>A plan also carries the backend's deferred work (objects that must be removed in a later
 * sync, such as nftables chains that were flushed and may only be deleted a second later): it is
 * state in the plan, not a hidden timer, and {@link #nextDeferredWork()} tells the engine when a
 * follow-up sync is due.
 */
public interface Plan {

    /** The mode that rendered this plan ({@code nftables}, ...). */
    String mode();

    /**
     * The whole ruleset this backend owns, as text in the backend's own language (for nftables,
     * {@code nft -f} commands in a canonical order). What {@code kproxy render} prints.
     */
    String rulesetText();

    /**
     * One family's part of the ruleset as complete input for the backend's own load tool, such
     * that loading it into an empty network namespace makes that namespace treat the family's
     * packets as the agent's node does: everything the agent programs outside the restore or
     * transaction text too (for iptables, the jumps from the built-in chains; for nftables,
     * that family's table as it is). What {@code kproxy render --family} prints. Settings that
     * are not rules (a sysctl) are named in comment lines of the text. Pure.
     */
    String loadableText(IpFamily family);

    /**
     * The {@code rulesetHash} of {@code SyncApplied}, and the only definition of it (the time-travel
     * commands compare recorded hashes with this method's answer for a re-rendered state):
     * lower-case hex SHA-256 over each family's node-wide digest, its part count and the sum
     * of its parts' digests, as {@link RulesetHash} defines it, each part being one service
     * port's contribution or a family's node-wide rules in the text of {@link #rulesetText()}'s
     * language. It is a function of the plan's content, not of how the plan was derived: the
     * incremental render and the full render of one state have equal hashes, and a different
     * ruleset has a different hash. It is not the SHA-256 of {@link #rulesetText()} (before
     * November 2026 it was), nor the SHA-256 over the ordered part digests (until the end of
     * November 2026); hashes recorded then compare only with those definitions. Cheap: the
     * backends keep each part's digest and their sum in the plan, so a hash costs the digests of
     * the parts re-rendered since the previous plan and one SHA-256 over a few hundred bytes,
     * whatever the number of service ports.
     */
    String rulesetHash();

    /** Number of service ports rendered, both families together. */
    int servicePorts();

    /** When the earliest deferred cleanup becomes due, or empty when nothing is pending. */
    Optional<Instant> nextDeferredWork();
}
