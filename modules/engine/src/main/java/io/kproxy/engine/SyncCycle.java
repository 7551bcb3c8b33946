package io.kproxy.engine;

import io.github.resilience4j.core.IntervalFunction;
import io.kproxy.backend.Backend;
import io.kproxy.backend.ConntrackFilter;
import io.kproxy.backend.FullSyncSchedule;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Plan;
import io.kproxy.backend.Skipped;
import io.kproxy.backend.SyncOptions;
import io.kproxy.backend.Transaction;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.events.SyncKind;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.IpAddress;
import io.kproxy.model.NodeName;
import io.kproxy.state.FoldedState;
import io.kproxy.state.NodeState;
import io.kproxy.state.Pin;
import io.kproxy.state.StateDelta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sync: the function the {@link SyncRunner} runs (docs/design.md, "Engine"; the cycle of
 * {@link Backend}'s Javadoc). It programs the latest folded state, never anything before
 * Services and EndpointSlices have synced:
 *
 * <ol>
 *   <li>the node's local addresses ({@link Backend#localAddresses}, ipvs mode): when they differ
 *       from the live state's, {@code LocalAddressesObserved} is appended and this run ends; the
 *       record's fold asks for the sync that programs them ({@code recordLocalAddresses});</li>
 *   <li>target = what {@link DataplaneTargets} chooses (the live fold, or the pinned state);
 *       delta = {@link StateDelta#between} the
 *       last programmed state and the target (from the empty state on the first sync, so that
 *       upstream's start-up conntrack cleanup happens too);</li>
 *   <li>full or partial by {@link FullSyncSchedule}: the first sync and the one after a failure
 *       start from no known kernel state (the backend's {@link Backend#diffFromKernel} reads what the
 *       kernel holds and takes it over, so a restart does not disturb traffic); the hourly one, a node change and a change of the
 *       dataplane pin (rollback, resume) rewrite everything;</li>
 *   <li>render (incrementally from the last applied plan when there is one, or on the first
 *       sync from the {@link DraftPlan} rendered while the initial list arrived, unless the state
 *       moved far from it: {@link DraftPlan#closeEnough}), diff, apply; before a render for
 *       {@code diffFromKernel} the backend is told ({@link Backend#willDiffFromKernel}), so that it
 *       can read the kernel beside the render;</li>
 *   <li>before a partial sync, {@link Backend#rulesIntact()}: when the backend's rules are gone
 *       (the iptables canary, docs/upstream-behaviour.md §1.5 row 42) the sync becomes a full
 *       one with no last plan;
 *       the engine also {@link #probe}s every sync period between syncs;</li>
 *   <li>on success: the transaction's newly skipped objects logged and counted once each
 *       ({@link Transaction#skipped()}), conntrack cleanup of stale UDP flows, {@code SyncApplied} appended (not for
 *       an empty transaction: nothing was applied; hashed and appended by the recorder, off the
 *       sync thread, in generation order), metrics, health, health-check ports, and a follow-up
 *       run when the plan holds deferred work;</li>
 *   <li>on failure: {@code SyncFailed} appended, the last applied plan forgotten so that the
 *       next sync is a full one, a retry after a Resilience4j exponential backoff (retryable
 *       errors; capped by the sync period) or after the sync period (fatal ones).</li>
 * </ol>
 *
 * <p>Everything but the first sync's full render costs O(change): the delta, render and diff
 * walk only what differs between persistent maps, the ruleset hash comes from per-fragment
 * digests, and the no-local-endpoints gauges and health-check ports are kept incrementally.
 *
 * <p>Confined to the runner's thread; blocks while the backend applies.
 */
final class SyncCycle {

    private static final Logger LOG = LoggerFactory.getLogger(SyncCycle.class);

    private final Backend backend;
    private final EventLog log;
    private final EngineOptions options;
    private final EngineClock clock;
    private final Supplier<DataplaneTarget> targets;
    private final PendingChanges pending;
    private final ProxyMetrics metrics;
    private final ProxyHealth health;
    private final ServiceHealthChecks checks;
    private final IntervalFunction backoff;
    private final Instant startedAt;
    private final Recorder recorder;
    private final NoLocalEndpoints noLocal = new NoLocalEndpoints();
    private final DraftPlan draft;
    private final Engine.Heap heap;
    private final HeapGrowth heapGrowth;

    private Optional<Plan> lastApplied = Optional.empty();
    private NodeState lastNode = FoldedState.initial().node();
    private Optional<Pin> lastPin = Optional.empty();
    private FullSyncSchedule schedule = FullSyncSchedule.initial();
    private long generation;
    private int failuresInARow;
    private boolean rulesGone;
    /** The offset of the last {@code LocalAddressesObserved} this cycle appended (-1: none pending) and its addresses. */
    private long recordedAt = -1;
    private List<IpAddress> recorded = List.of();

    /**
     * @param targets  what each sync programs (may block while it rebuilds a pinned state)
     * @param recorder where the sync records are hashed and appended, in order, off the sync thread
     * @param draft    the plan rendered while the initial list arrives, for the first sync
     * @param heap     what the compactions collect, and {@link HeapGrowth} measures
     */
    SyncCycle(Backend backend, EventLog log, EngineOptions options, EngineClock clock, Supplier<DataplaneTarget> targets, PendingChanges pending,
            ProxyMetrics metrics, ProxyHealth health, ServiceHealthChecks checks, Recorder recorder, DraftPlan draft, Engine.Heap heap) {
        this.backend = backend;
        this.log = log;
        this.options = options;
        this.clock = clock;
        this.targets = targets;
        this.pending = pending;
        this.metrics = metrics;
        this.health = health;
        this.checks = checks;
        this.backoff = IntervalFunction.ofExponentialBackoff(options.retryBackoffInitial(), 2.0, options.syncPeriod());
        this.startedAt = clock.now();
        this.recorder = recorder;
        this.draft = draft;
        this.heap = heap;
        this.heapGrowth = new HeapGrowth(heap::committed);
    }

    SyncRunner.Outcome run() {
        DataplaneTarget target = targets.get();
        if (!target.node().synced()) {
            LOG.debug("decision=skip-sync reason=\"services and endpoint slices have not both synced\" offset={}", target.uptoOffset());
            return SyncRunner.Outcome.succeeded();
        }
        if (target.pin().isEmpty() && recordLocalAddresses(target)) {
            // The record's fold changes the node and asks for the sync that programs them.
            return SyncRunner.Outcome.succeeded();
        }
        Instant now = clock.now();
        long start = clock.nanoTime();
        StateDelta delta = StateDelta.between(lastNode, target.node());
        boolean full = schedule.fullSyncDue(now, delta.nodeChanged()) || !target.pin().equals(lastPin);
        if (rulesGone || !full && !rulesIntact()) {
            // Something else flushed our rules (docs/upstream-behaviour.md §1.5 row 42: the
            // iptables canary): the kernel's state is unknown, so rewrite everything with no last
            // plan.
            lastApplied = Optional.empty();
            rulesGone = false;
            full = true;
        }
        boolean fromScratch = lastApplied.isEmpty() || schedule.lastFullSync().isEmpty() || schedule.lastFailed();
        if (fromScratch) {
            backend.willDiffFromKernel(); // the backend may read the kernel beside the render
        }
        Transaction tx;
        try {
            Plan plan;
            if (lastApplied.isPresent()) {
                plan = backend.renderIncremental(lastApplied.get(), target.node(), delta);
            } else {
                compactBeforeLargeRender(target.node());
                long rendering = clock.nanoTime();
                Optional<DraftPlan.Draft> d = draft.take();
                StateDelta fromDraft = d.map(x -> StateDelta.between(x.node(), target.node())).orElse(null);
                boolean useDraft = fromDraft != null && DraftPlan.closeEnough(fromDraft, target.node());
                plan = useDraft ? backend.renderIncremental(d.get().plan(), target.node(), fromDraft) : backend.render(target.node());
                LOG.info("decision=rendered-from-scratch service_ports={} draft_ports={} from_draft={} millis={}",
                        target.node().servicePorts(), d.map(x -> x.plan().servicePorts()).orElse(0),
                        useDraft, (clock.nanoTime() - rendering) / 1_000_000);
            }
            SyncOptions syncOptions = full ? SyncOptions.fullAt(now) : SyncOptions.at(now);
            // With no plan to trust, the backend reads what the kernel holds and takes it over.
            tx = fromScratch ? backend.diffFromKernel(plan, syncOptions) : backend.diff(lastApplied, plan, syncOptions);
        } catch (KernelException e) {
            return failed(target, SyncKind.FULL, now, start, e.getMessage(), e.retryable());
        } catch (RuntimeException e) {
            // A render or diff bug: the input is not going to change by retrying at once.
            return failed(target, full ? SyncKind.FULL : SyncKind.PARTIAL, now, start, e.toString(), false);
        }
        try {
            if (!tx.isEmpty()) {
                compactAroundLargeRewrite(tx.kind(), tx.text().length(), "before");
                backend.apply(tx);
            }
        } catch (KernelException e) {
            return failed(target, tx.kind(), now, start, e.getMessage(), e.retryable());
        } catch (RuntimeException e) {
            return failed(target, tx.kind(), now, start, e.toString(), true);
        }
        Applied done = new Applied(tx.kind(), tx.operations(), tx.text().length(), tx.result(), tx.skipped());
        schedule = schedule.after(tx, now, true);
        tx = null; // its text (megabytes on a full sync) is garbage from here on: see compactAroundLargeRewrite
        return succeeded(target, done, delta, now, start);
    }

    /** How long a sync waits for its {@code LocalAddressesObserved} to be durable before it goes on with the recorded ones. */
    static final Duration RECORD_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Records the node's local addresses ({@code LocalAddressesObserved}, with the engine's
     * source) when the backend's read of them ({@link Backend#localAddresses}) differs from what
     * the live state recorded last, so that the sync that uses them renders them from the node
     * state and {@code render --at} its offset shows what it programmed (docs/backends/ipvs.md,
     * "Node addresses"). True when it appended (or an append is still to be folded): this run
     * programs nothing and the record's fold asks for the next one. A failed read or append is
     * logged and the sync goes on with the recorded addresses; the next sync tries again.
     */
    private boolean recordLocalAddresses(DataplaneTarget target) {
        String node = target.node().node().name();
        Optional<List<IpAddress>> read;
        try {
            read = node.isEmpty() ? Optional.empty() : backend.localAddresses();
        } catch (KernelException | RuntimeException e) {
            LOG.warn("decision=keep-local-addresses reason=\"reading them failed\" error=\"{}\"", String.valueOf(e.getMessage()).replace('"', '\''));
            return false;
        }
        if (read.isEmpty()) {
            return false;
        }
        LocalAddressesObserved observed = new LocalAddressesObserved(new NodeName(node), read.get());
        if (observed.addresses().equals(target.node().node().localAddresses())) {
            recordedAt = -1;
            return false;
        }
        if (recordedAt > target.liveOffset() && observed.addresses().equals(recorded)) {
            return true; // appended by an earlier run, not folded yet
        }
        try {
            recordedAt = log.append(options.source(), observed).get(RECORD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            recorded = observed.addresses();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("decision=keep-local-addresses reason=\"recording them failed\" error=\"{}\"", String.valueOf(e.getMessage()).replace('"', '\''));
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        LOG.info("decision=record-local-addresses offset={} addresses={} was={}", recordedAt, observed.addresses().size(),
                target.node().node().localAddresses().size());
        return true;
    }

    /** What a successful sync applied, without the transaction's text. */
    private record Applied(SyncKind kind, int operations, int chars, Plan result, List<Skipped> skipped) {
        boolean isEmpty() {
            return operations == 0;
        }
    }

    /**
     * The periodic probe (every sync period, on the runner's thread, between syncs; upstream's
     * iptables {@code Monitor}, {@code pkg/util/iptables/iptables.go}): true when the backend's
     * rules are gone and a sync must be requested, which will then be a full one with no last
     * plan. Nothing to probe before the first sync or after a failure (the next sync is full
     * anyway). Not a sync: it does not count against the minimum sync interval.
     */
    boolean probe() {
        if (lastApplied.isEmpty() || rulesGone) {
            return false;
        }
        rulesGone = !rulesIntact();
        return rulesGone;
    }

    /**
     * Asks the backend whether its rules are still in place. A probe that fails counts as "not
     * intact", as upstream's {@code Monitor} treats a canary it cannot see.
     */
    private boolean rulesIntact() {
        boolean intact;
        try {
            intact = backend.rulesIntact();
        } catch (KernelException | RuntimeException e) {
            LOG.warn("decision=full-sync reason=\"the rules-intact probe failed\" error=\"{}\"",
                    String.valueOf(e.getMessage()).replace('"', '\''));
            return false;
        }
        if (!intact) {
            LOG.warn("decision=full-sync reason=\"the backend's rules are no longer in the kernel (canary gone)\"");
        }
        return intact;
    }

    private SyncRunner.Outcome succeeded(DataplaneTarget target, Applied tx, StateDelta delta, Instant now, long start) {
        NodeState before = lastNode;
        lastApplied = Optional.of(tx.result());
        lastNode = target.node();
        lastPin = target.pin();
        failuresInARow = 0;
        cleanConntrack(delta, target.node());
        Duration took = Duration.ofNanos(clock.nanoTime() - start);
        Instant end = clock.now();
        if (!tx.isEmpty()) {
            // The recorder hashes (cheap: per-fragment digests) and appends, off the sync thread.
            long gen = ++generation;
            Plan result = tx.result();
            SyncKind kind = tx.kind();
            record(() -> new SyncApplied(backend.mode(), gen, target.uptoOffset(), kind, result.rulesetHash(), took));
        }
        metrics.syncApplied(tx.kind(), took, end);
        for (Skipped s : tx.skipped()) {
            // Reported by the backend once, when the decision is new (docs/backends/ipvs.md, "Bad input").
            LOG.warn("decision=skip-bad-input mode={} cause={} object=\"{}\" reason=\"{}\"", backend.mode(), s.cause().label(),
                    s.object().replace('"', '\''), s.reason().replace('"', '\''));
            metrics.skipped(s);
        }
        noLocal.update(before, target.node());
        metrics.noLocalEndpoints(noLocal);
        for (PendingChanges.Change c : pending.drainUpTo(target.uptoOffset())) {
            // Upstream ignores trigger times from before the proxy started (endpointschangetracker.go).
            c.triggerTime().filter(t -> t.at().isAfter(startedAt))
                    .ifPresent(t -> metrics.networkProgramming(t.family(), Duration.between(t.at(), end)));
        }
        health.updated();
        checks.update(before, target.node());
        if (tx.isEmpty() && delta.isEmpty()) {
            // A request that changed nothing (the hourly run, a follow-up): not a decision worth a line.
            LOG.debug("decision=synced kind={} generation={} upto_offset={} operations=0 changed_ports=0 millis={}", tx.kind(), generation,
                    target.uptoOffset(), took.toMillis());
        } else {
            LOG.info("decision=synced kind={} generation={} upto_offset={} operations={} changed_ports={} millis={}", tx.kind(),
                    generation, target.uptoOffset(), tx.operations(), delta.changedPorts().size(), took.toMillis());
        }
        compactAroundLargeRewrite(tx.kind(), tx.chars(), "after");
        if (heapGrowth.grown()) {
            compactHeap("the heap grew by half since the last compaction", "committed_mb", (int) (heap.committed() >> 20));
        }
        Optional<Duration> followUp = tx.result().nextDeferredWork().map(w -> {
            Duration d = Duration.between(end, w);
            return d.isNegative() ? Duration.ZERO : d;
        });
        return new SyncRunner.Outcome.Succeeded(followUp);
    }

    /** From this many Service ports (both families) a render from scratch writes a large transaction (about 4 M characters). */
    static final int LARGE_RENDER_PORTS = 3_000;

    /**
     * Before rendering everything from scratch for a large node (the first sync, or after a
     * failure): collects what the initial list left in the old generation (decoded pages and
     * informer objects promoted while the fold kept up: about half the heap at that point), so
     * that writing the transaction's text grows the heap from the live data. The process's memory
     * peaks at the first full sync; without this collection the peak comes here, with the old
     * generation full and the JIT compiling the text writer. The collection before the apply
     * ({@link #compactAroundLargeRewrite}) still runs: it frees the render's garbage and shrinks
     * the heap before the compile, where the peak moves without it; only both keep the peak low.
     * The memory goal and its measurements: docs/benchmarks.md, "Agent end to end".
     */
    private void compactBeforeLargeRender(NodeState node) {
        int ports = node.servicePorts();
        if (ports >= LARGE_RENDER_PORTS) {
            compactHeap("before rendering a large full sync from scratch", "service_ports", ports);
        }
    }

    /**
     * After a full transaction of this many characters (about 3,000 Services) the heap holds tens
     * of megabytes of dead render and transaction buffers, much of it in the old generation.
     */
    static final int LARGE_REWRITE_CHARS = 4_000_000;

    /**
     * Collects that garbage at once while the dataplane is idle, twice per large full sync: before
     * the kernel is programmed (the garbage of what came before it: at the first sync, the initial
     * list's decoded pages, informer objects and drafts, so that the heap the apply grows into
     * starts from the live data; see {@link #compactBeforeLargeRender}), and right after it (its
     * render and transaction buffers: otherwise the next full collection comes at a random later
     * moment, in the middle of a single change, and its pause, which grows with the heap, lands in
     * that change's programming latency). It also lets the collector
     * shrink the heap as far as it will ({@code -XX:MaxHeapFreeRatio}; the serial collector damps
     * shrinking over successive collections). A no-op under {@code -XX:+DisableExplicitGC}.
     */
    private void compactAroundLargeRewrite(SyncKind kind, int chars, String when) {
        if (kind == SyncKind.FULL && chars >= LARGE_REWRITE_CHARS) {
            compactHeap(when + " a large full sync", "transaction_chars", chars);
        }
    }

    /** A full collection, logged with its reason, the size that called for it, and its duration; {@link HeapGrowth}'s bound starts again. */
    private void compactHeap(String reason, String sizeField, int size) {
        long start = System.nanoTime();
        heap.collect();
        heapGrowth.compacted();
        LOG.info("decision=compact-heap reason=\"{}\" {}={} millis={}", reason, sizeField, size, (System.nanoTime() - start) / 1_000_000);
    }

    private SyncRunner.Outcome failed(DataplaneTarget target, SyncKind kind, Instant now, long start, String error, boolean retryable) {
        lastApplied = Optional.empty();
        schedule = new FullSyncSchedule(schedule.lastFullSync(), true);
        failuresInARow++;
        Duration took = Duration.ofNanos(clock.nanoTime() - start);
        String message = error == null || error.isBlank() ? "unknown error" : error;
        long gen = ++generation;
        record(() -> new SyncFailed(backend.mode(), gen, target.uptoOffset(), kind, message, retryable, took));
        metrics.syncFailed();
        Duration retry = retryable ? Duration.ofMillis(backoff.apply(failuresInARow)) : options.syncPeriod();
        LOG.warn("decision=retry-full-sync kind={} generation={} upto_offset={} retryable={} retry_in_millis={} error=\"{}\"", kind,
                generation, target.uptoOffset(), retryable, retry.toMillis(), message.replace('"', '\''));
        return new SyncRunner.Outcome.Failed(retry);
    }

    private void cleanConntrack(StateDelta delta, NodeState state) {
        List<ConntrackFilter> filters = backend.conntrackFilters(delta, state);
        if (filters.isEmpty()) {
            return;
        }
        try {
            int deleted = backend.cleanConntrack(filters);
            LOG.info("decision=conntrack-cleanup filters={} deleted={}", filters.size(), deleted);
        } catch (KernelException e) {
            // Upstream logs and goes on: the rules are right; stale UDP flows age out.
            LOG.warn("decision=continue reason=\"conntrack cleanup failed\" error=\"{}\"", e.getMessage());
        }
    }

    /**
     * The only feedback into the log, appended on the recorder in generation order. The append
     * is not waited for (a slow disk must not stall the dataplane); the recorder's bounded queue
     * is the only backpressure.
     */
    private void record(Supplier<ClusterEvent> event) {
        recorder.submit(() -> {
            ClusterEvent e = event.get();
            log.append(options.source(), e).whenComplete((offset, error) -> {
                if (error != null) {
                    LOG.warn("decision=continue reason=\"could not record {}\" error=\"{}\"", e.type(), error.toString());
                }
            });
        });
    }
}
