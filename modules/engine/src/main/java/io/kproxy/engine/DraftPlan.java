package io.kproxy.engine;

import io.kproxy.backend.Backend;
import io.kproxy.backend.Plan;
import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import io.kproxy.state.StateDelta;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.scheduler.Scheduler;

/**
 * The plan of the state folded so far, rendered while the source's initial list is still
 * arriving, so that the first sync finds most of its render done (at 10,000 Services the full
 * render of a cold JVM takes seconds). It is never applied and never recorded: nothing is
 * programmed before Services and EndpointSlices have both synced (docs/design.md, "The event log");
 * the first sync {@link #take}s it and renders only what changed since
 * ({@link Backend#renderIncremental}, equal to a full render by the backend's contract), or from
 * scratch when that is most of the state ({@link #closeEnough}; a draft far behind renders from
 * scratch too).
 *
 * <p>Renders run on the given scheduler, off the fold and sync threads, one at a time; requests
 * coalesce, and a render starts no sooner than {@link #MIN_GAP}, or twice the last render's
 * duration, after the last one ended: while the list arrives the fold, the informers and the API
 * server need the cores too (drafts rendered back to back would take a large share of the CPU
 * of a small node while the list arrives), and a draft only has to be close to the final state. Thread-safe; {@link #request} never blocks.
 */
final class DraftPlan {

    private static final Logger LOG = LoggerFactory.getLogger(DraftPlan.class);

    /** A rendered draft and the state it is the plan of. */
    record Draft(Plan plan, NodeState node) {
    }

    private final Backend backend;
    private final Scheduler scheduler;
    private final Supplier<FoldedState> live;
    static final Duration MIN_GAP = Duration.ofMillis(250);

    private final AtomicBoolean queued = new AtomicBoolean();
    /** Held for the whole of a render, so that {@link #take} can wait for the one in progress. */
    private final ReentrantLock rendering = new ReentrantLock();
    private final EngineClock clock;
    /** The clock's {@link EngineClock#nanoTime} before which the next render does not start. */
    private volatile long notBefore;
    private volatile Draft latest;
    private volatile boolean stopped;
    private long renders;

    /** Changed service ports up to which a render on top of a draft is always taken: either way is quick. */
    static final int ALWAYS_CLOSE = 256;

    /**
     * Whether {@code node} is close enough to the draft that {@code delta} leads from for a render
     * on top of it ({@link Backend#renderIncremental}) to beat one from scratch: at most an eighth
     * of the node's service ports changed (or {@link #ALWAYS_CLOSE}). An incremental render costs
     * several times a full render per port, and more when the ports' count crosses a power of two
     * (the nftables backend moves every endpoint dispatch then): at 100,000 Services a first sync
     * from a draft of 50,000 took 22-26 s, the render from scratch 6-8 s (docs/benchmarks.md,
     * "Fifteenth pass").
     */
    static boolean closeEnough(StateDelta delta, NodeState node) {
        return delta.changedPorts().size() <= Math.max(ALWAYS_CLOSE, node.servicePorts() / 8);
    }

    /** {@code clock} must agree with {@code scheduler}'s timers. */
    DraftPlan(Backend backend, Scheduler scheduler, EngineClock clock, Supplier<FoldedState> live) {
        this.backend = backend;
        this.scheduler = scheduler;
        this.clock = clock;
        this.live = live;
        this.notBefore = clock.nanoTime();
    }

    /** Asks for the draft to catch up with the live state; nothing once the state has synced or the draft was taken. */
    void request() {
        if (!stopped && queued.compareAndSet(false, true)) {
            long wait = Math.max(0, notBefore - clock.nanoTime());
            scheduler.schedule(() -> {
                queued.set(false);
                long start = clock.nanoTime();
                renderOnce();
                long end = clock.nanoTime();
                notBefore = end + Math.max(MIN_GAP.toNanos(), 2 * (end - start));
            }, wait, TimeUnit.NANOSECONDS);
        }
    }

    private void renderOnce() {
        rendering.lock();
        try {
            NodeState node = live.get().node();
            if (stopped || node.synced()) {
                return;
            }
            Draft d = latest;
            Plan plan;
            StateDelta delta = d == null ? null : StateDelta.between(d.node(), node);
            if (delta != null && delta.isEmpty()) {
                return;
            }
            plan = delta != null && closeEnough(delta, node) ? backend.renderIncremental(d.plan(), node, delta) : backend.render(node);
            latest = new Draft(plan, node);
            renders++;
        } catch (RuntimeException e) {
            // Only an optimisation: the first sync renders from scratch instead.
            LOG.warn("decision=drop-draft reason=\"render failed\" error=\"{}\"", e.toString());
            latest = null;
            stopped = true;
        } finally {
            rendering.unlock();
        }
    }

    /**
     * The latest draft, once: from now on no draft is rendered. A render in progress is waited
     * for and its result used: it started from an earlier draft toward a later state, so the sync
     * that takes it renders less, and without the wait that render would go on beside the sync's
     * own render of the same ports and be dropped (5 s of a core at 30,000 Services:
     * docs/benchmarks.md, "Scale").
     */
    Optional<Draft> take() {
        stopped = true;
        rendering.lock();
        try {
            Draft d = latest;
            latest = null;
            if (d != null) {
                LOG.info("decision=use-draft-plan service_ports={} draft_renders={}", d.plan().servicePorts(), renders);
            }
            return Optional.ofNullable(d);
        } finally {
            rendering.unlock();
        }
    }
}
