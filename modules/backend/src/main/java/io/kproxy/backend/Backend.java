package io.kproxy.backend;

import io.kproxy.model.IpAddress;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.util.List;
import java.util.Optional;

/**
 * One proxy mode's dataplane. {@link #render}, {@link #renderIncremental} and {@link #diff} are
 * pure, deterministic and thread-safe; {@link #apply}, {@link #check}, {@link #cleanup} and
 * {@link #cleanConntrack} are effects that block until the kernel answered and must be called
 * from one thread at a time (the engine's sync loop).
 *
 * <p>The engine's cycle: {@code desired = renderIncremental(last, state, delta)} (or
 * {@code render(state)}), {@code tx = diff(lastApplied, desired, options)}, {@code apply(tx)}, then
 * on success {@code lastApplied = tx.result()} and {@code cleanConntrack(conntrackFilters(...))};
 * on failure {@code lastApplied = empty} so that the next sync is a full one.
 */
public interface Backend extends AutoCloseable {

    /** The mode name ({@code nftables}, {@code iptables}, ...). */
    String mode();

    /** The plan for {@code state}, rendered from scratch. */
    Plan render(NodeState state);

    /**
     * The plan for {@code state} derived from {@code previous} (the plan of the state before
     * {@code delta}) by re-rendering only what {@code delta} names. Equal to
     * {@code render(state)}; a settings or node change falls back to a full render.
     */
    Plan renderIncremental(Plan previous, NodeState state, StateDelta delta);

    /**
     * The transaction that takes a kernel holding {@code lastApplied} to {@code desired}. An
     * empty {@code lastApplied} (first sync, or after a failure) or {@code options.forceFull()}
     * gives a full transaction; otherwise only what changed, and an empty transaction when
     * nothing did.
     */
    Transaction diff(Optional<Plan> lastApplied, Plan desired, SyncOptions options);

    /**
     * The full transaction that takes the kernel, as it is now, to {@code desired}: what the
     * engine applies when it has no last applied plan it can trust (its first sync, the sync after
     * a failure, or after something else changed the rules). A backend that can read what it owns
     * in the kernel takes that over in place, so that a restarting proxy does not disturb new
     * connections; the default is {@code diff(Optional.empty(), desired, options)}. Reads the
     * kernel; blocks.
     */
    default Transaction diffFromKernel(Plan desired, SyncOptions options) throws KernelException {
        return diff(Optional.empty(), desired, options);
    }

    /**
     * Told by the engine, before it renders the plan of a sync that {@link #diffFromKernel} will
     * diff: a backend may start reading the kernel then, beside the render, and use what it read
     * in that call (the nftables backend's read of its tables' names: 2 s at 100,000 Services).
     * The next {@code diffFromKernel} uses it or reads again; nothing else may. Must not block or
     * throw (a failed read is thrown by that {@code diffFromKernel}). Default: nothing.
     */
    default void willDiffFromKernel() {
    }

    /** Programs the kernel. Blocks. */
    void apply(Transaction transaction) throws KernelException;

    /** Asks the kernel whether it would accept {@code transaction} without changing anything (a dry run). Blocks. */
    void check(Transaction transaction) throws KernelException;

    /** Removes everything this backend owns from the kernel, and nothing else. Idempotent. Blocks. */
    void cleanup() throws KernelException;

    /**
     * Whether the rules this backend programmed are still in place, as far as a cheap probe can
     * tell (upstream's iptables canary, {@code pkg/util/iptables/iptables.go} {@code Monitor}:
     * a firewall reload or a hand flush deletes the {@code KUBE-PROXY-CANARY} chains). When it
     * answers false the engine's next sync must be a full one with no last applied plan. The
     * engine asks before a partial sync and at least every sync period. Backends without such a
     * probe answer true (their hourly full sync is the repair path). Blocks.
     */
    default boolean rulesIntact() throws KernelException {
        return true;
    }

    /**
     * The node's local addresses the backend's render uses, read from the kernel now, or empty
     * when its render uses none (the default). ipvs mode puts NodePort virtual servers on them
     * (upstream's {@code GetAllLocalAddressesExcept}, {@code pkg/proxy/ipvs/proxier.go}). The
     * render itself never reads them: it takes them from the node state
     * ({@link io.kproxy.state.NodeInfo#localAddresses}), where the engine records them
     * ({@code LocalAddressesObserved}) before the sync that uses them, so that history renders
     * what was programmed. Blocks.
     */
    default Optional<List<IpAddress>> localAddresses() throws KernelException {
        return Optional.empty();
    }

    /**
     * The stale UDP flows to delete after a successful sync whose delta says UDP service ports
     * lost endpoints (docs/upstream-behaviour.md §1.4 row 37). Pure. The rule is upstream's in
     * every mode ({@link ConntrackFilters#of}); the default applies it.
     */
    default List<ConntrackFilter> conntrackFilters(StateDelta delta, NodeState state) {
        return ConntrackFilters.of(delta, state);
    }

    /** Deletes the flows matched by {@code filters}; returns how many were deleted. Blocks. */
    int cleanConntrack(List<ConntrackFilter> filters) throws KernelException;

    /** Releases the kernel ports (native contexts, threads). */
    @Override
    void close();
}
