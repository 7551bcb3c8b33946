package io.kproxy.backend;

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

    /** Lower-case hex SHA-256 of {@link #rulesetText()}: the {@code rulesetHash} of {@code SyncApplied}. */
    String rulesetHash();

    /** Number of service ports rendered, both families together. */
    int servicePorts();

    /** When the earliest deferred cleanup becomes due, or empty when nothing is pending. */
    Optional<Instant> nextDeferredWork();
}
