package io.kproxy.engine;

import io.kproxy.backend.Backend;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.replay.StateLoader;
import io.kproxy.state.FoldStep;
import io.kproxy.state.FoldedState;
import io.kproxy.state.Rejection;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The node agent's engine (docs/design.md, "Engine"): one Reactor pipeline that tails the event
 * log, folds each record ({@link FoldedState#apply}, the {@code scan} of the log) and wakes a
 * {@link SyncRunner} that programs the latest state through the backend ({@link SyncCycle}).
 *
 * <ul>
 *   <li><b>Start and restart.</b> The state is rebuilt from the newest snapshot plus the log's
 *       suffix ({@link StateLoader}), the tail continues after it, and one full sync follows as
 *       soon as the state has synced, which a restarted proxy's journal already says: the kernel
 *       is reprogrammed with the same rules before the API server is even reached. Nothing is
 *       flushed on start or on stop. When the journal lost records, the state is folded from the
 *       records it still serves and no start-up sync is made from it: the source's relist
 *       appends what differs from the API server, and that (or the periodic sync) programs the
 *       kernel.</li>
 *   <li><b>Waking.</b> A record wakes the runner only when it changed the node's desired state
 *       (a non-empty {@code StateDelta}) or completed the initial sync; the engine's own
 *       {@code SyncApplied}/{@code SyncFailed} records change nothing and so never trigger a
 *       sync.</li>
 *   <li><b>Pins.</b> A {@code DataplanePinned} record (rollback) makes the syncs program the
 *       state at the pin's offset ({@link DataplaneTargets}) while the tail keeps folding live
 *       records; {@code DataplaneUnpinned} (resume) returns to the live state. Each wakes a full
 *       sync; health and metrics say whether the dataplane is pinned. A restart honours the pin
 *       the log holds. {@link #control()} is the admin endpoint's way in.</li>
 *   <li><b>Snapshots.</b> Every {@link EngineOptions#snapshotInterval()} records the folded state
 *       is written to the log's snapshot store, off the fold thread.</li>
 * </ul>
 *
 * <p>Threading: folding runs on the fold scheduler, syncs and the rules-intact probe on the sync
 * scheduler (the backend blocks there; it must be a single thread), snapshots and the
 * {@link DraftPlan} on the background scheduler, sync records on the {@link Recorder}; all given
 * at start and closed by {@link #close()}. Accessors are thread-safe and never block.
 */
public final class Engine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    /**
     * What the engine runs on.
     *
     * @param log        the event log it tails and appends to
     * @param backend    the dataplane; the caller closes it after the engine
     * @param options    pacing and snapshots
     * @param registry   where the metrics go
     * @param clock      the clock of everything timed (must agree with the timers of {@code sync} and {@code background})
     * @param fold       folds records (one thread)
     * @param sync       runs syncs (one thread; blocks while the kernel applies)
     * @param background writes snapshots and renders the draft plan before the first sync
     * @param recorder   hashes and appends the sync records
     * @param heap       the JVM heap the sync thread compacts ({@link Heap#runtime()} unless a test watches)
     */
    public record Wiring(EventLog log, Backend backend, EngineOptions options, PrometheusMeterRegistry registry, EngineClock clock,
            Scheduler fold, Scheduler sync, Scheduler background, Recorder recorder, Heap heap) {

        /** With the JVM's own heap. */
        public Wiring(EventLog log, Backend backend, EngineOptions options, PrometheusMeterRegistry registry, EngineClock clock,
                Scheduler fold, Scheduler sync, Scheduler background, Recorder recorder) {
            this(log, backend, options, registry, clock, fold, sync, background, recorder, Heap.runtime());
        }

        /**
         * Production threads and clocks: single-thread schedulers for folding, syncing and
         * snapshots, a recorder thread with room for two records.
         */
        public static Wiring production(EventLog log, Backend backend, EngineOptions options, PrometheusMeterRegistry registry) {
            return new Wiring(log, backend, options, registry, EngineClock.system(), Schedulers.newSingle("kproxy-fold", true),
                    Schedulers.newSingle("kproxy-sync", true), Schedulers.newSingle("kproxy-snapshot", true),
                    Recorder.thread("kproxy-recorder", 2));
        }
    }

    /**
     * The heap as the sync thread sees it: its committed size and a full collection (the
     * compactions around large syncs and {@code HeapGrowth}'s; docs/benchmarks.md, "Scale").
     */
    public interface Heap {

        /** The committed heap, in bytes. */
        long committed();

        /** A full collection (a no-op under {@code -XX:+DisableExplicitGC}). */
        void collect();

        /** This JVM's: {@link Runtime#totalMemory()} and {@link System#gc()}. */
        static Heap runtime() {
            return new Heap() {
                @Override
                public long committed() {
                    return Runtime.getRuntime().totalMemory();
                }

                @Override
                public void collect() {
                    System.gc();
                }
            };
        }
    }

    private final Wiring wiring;
    private final PendingChanges pending = new PendingChanges();
    private final ProxyMetrics metrics;
    private final ProxyHealth health;
    private final ServiceHealthChecks checks;
    private final DraftPlan draft;
    private final SyncCycle cycle;
    private final SyncRunner runner;
    private final SyncWatch syncWatch = new SyncWatch();
    private final DataplaneControl control;
    private final AtomicBoolean snapshotting = new AtomicBoolean();
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    private volatile FoldedState latest;
    private volatile long lastSnapshotOffset;
    private volatile boolean closing;
    private Disposable tail;
    private Disposable probe;

    private Engine(Wiring wiring) {
        this.wiring = wiring;
        this.metrics = new ProxyMetrics(wiring.registry(), wiring.backend().mode(), pending);
        this.health = new ProxyHealth(wiring.clock(), wiring.options().healthTimeout(), metrics);
        this.checks = new ServiceHealthChecks(health);
        this.draft = new DraftPlan(wiring.backend(), wiring.background(), wiring.clock(), () -> latest);
        DataplaneTargets targets = new DataplaneTargets(wiring.log(), () -> latest);
        this.control = new DataplaneControl(wiring.log(), targets, syncWatch, () -> latest, wiring.clock());
        this.cycle = new SyncCycle(wiring.backend(), wiring.log(), wiring.options(), wiring.clock(), targets, pending, metrics,
                health, checks, wiring.recorder(), draft, wiring.heap());
        EngineOptions o = wiring.options();
        this.runner = new SyncRunner("sync", cycle::run, o.minSyncPeriod(), o.syncPeriod(), o.maxSyncInterval(), wiring.sync(),
                wiring.clock());
    }

    /**
     * Rebuilds the state from the log (blocking), starts the tail and the runner, and asks for
     * the first sync when the state has synced.
     */
    public static Engine start(Wiring wiring) {
        Engine e = new Engine(wiring);
        // records the journal lost are stepped over: the source relists at start and appends what
        // differs from this state (docs/operations.md, "Damaged journal")
        StateLoader.Loaded loaded = StateLoader.latest(wiring.log(), StateLoader.LostRecords.SKIP);
        e.latest = loaded.state();
        e.lastSnapshotOffset = loaded.snapshotOffset();
        e.health.nodeEligible(loaded.state().node().node().eligible());
        if (loaded.state().pin().isPresent()) {
            e.pinChanged(loaded.state()); // a restart honours the pin the log holds
        }
        e.runner.start();
        // The rules-intact probe at least every sync period (docs/upstream-behaviour.md §1.5 rows
        // 41-42), on the sync scheduler's thread so that it never runs during a sync; it is not a
        // sync itself.
        long period = wiring.options().syncPeriod().toNanos();
        e.probe = wiring.sync().schedulePeriodically(() -> {
            if (!e.closing && e.cycle.probe()) {
                e.runner.run();
            }
        }, period, period, TimeUnit.NANOSECONDS);
        e.tail = wiring.log().tail(loaded.resumeAt()).publishOn(wiring.fold(), 256).subscribe(e::onRecord, e::onTailError);
        if (loaded.lostRanges() > 0) {
            // The state lacks records the journal lost: the kernel keeps the rules it has (folded
            // from every record, before the loss) until the source's relist appends what differs,
            // which triggers a sync, or the periodic full sync comes (docs/operations.md, "Damaged journal").
            LOG.warn("decision=wait-for-relist lost_ranges={} offset={} reason=\"the journal lost records; no start-up sync from a partial state\"",
                    loaded.lostRanges(), loaded.state().offset());
            e.draft.request();
        } else if (loaded.state().node().synced()) {
            e.queueSync();
        } else {
            e.draft.request();
        }
        LOG.info("decision=engine-started mode={} offset={} synced={} pinned_to={} min_sync_period={} sync_period={}", wiring.backend().mode(),
                loaded.state().offset(), loaded.state().node().synced(),
                loaded.state().pin().map(p -> Long.toString(p.toOffset())).orElse("none"), wiring.options().minSyncPeriod(),
                wiring.options().syncPeriod());
        return e;
    }

    private void onRecord(Envelope record) {
        FoldedState before = latest;
        if (record.offset() <= before.offset()) {
            return; // already folded by the start-up load
        }
        FoldStep step = before.apply(record);
        FoldedState after = step.state();
        latest = after;
        for (Rejection r : step.rejections()) {
            LOG.warn("decision=skip-field offset={} kind={} key={} field={} reason=\"{}\"", r.offset(), r.kind(), r.key(), r.field(),
                    r.reason().replace('"', '\''));
        }
        health.nodeEligible(after.node().node().eligible());
        syncWatch.onRecord(record);
        if (!step.delta().isEmpty()) {
            noteChange(record);
        }
        boolean pinChanged = !after.pin().equals(before.pin());
        if (pinChanged) {
            pinChanged(after);
        }
        if (after.node().synced() && (!step.delta().isEmpty() || !before.node().synced()) || pinChanged) {
            queueSync();
        } else if (!after.node().synced() && !step.delta().isEmpty()) {
            draft.request(); // render ahead while the initial list arrives; never applied before sync
        }
        maybeSnapshot(after);
    }

    /** Health, metrics and the log say what the dataplane follows now. */
    private void pinChanged(FoldedState state) {
        health.pinned(state.pin());
        metrics.pinned(state.pin());
        state.pin().ifPresentOrElse(
                p -> LOG.info("decision=dataplane-pinned to_offset={} pinned_at={} reason=\"{}\"", p.toOffset(), p.pinnedAt(),
                        p.reason().replace('"', '\'')),
                () -> LOG.info("decision=dataplane-live offset={}", state.offset()));
    }

    /** Counts a Service or EndpointSlice change (upstream's change trackers) and keeps its trigger time. */
    private void noteChange(Envelope record) {
        switch (record.event()) {
            case ServiceObserved _ -> serviceChange(record);
            case ServiceDeleted _ -> serviceChange(record);
            case EndpointSliceObserved s -> endpointChange(record, TriggerTime.of(s.object()));
            case EndpointSliceDeleted _ -> endpointChange(record, Optional.empty());
            // Node, ServiceCIDR, configuration and barrier records change rules too, but are
            // neither Service nor endpoint changes in upstream's counting; the rest never change
            // the state.
            case NodeObserved _ -> { }
            case NodeDeleted _ -> { }
            case ServiceCIDRObserved _ -> { }
            case ServiceCIDRDeleted _ -> { }
            case SourceSynced _ -> { }
            case SourceRelisted _ -> { }
            case ConfigRecorded _ -> { }
            case SyncApplied _ -> { }
            case SyncFailed _ -> { }
            case DataplanePinned _ -> { }
            case DataplaneUnpinned _ -> { }
            case LocalAddressesObserved _ -> { }
        }
    }

    private void serviceChange(Envelope record) {
        metrics.serviceChange();
        pending.add(new PendingChanges.Change(record.offset(), true, Optional.empty()));
    }

    private void endpointChange(Envelope record, Optional<TriggerTime> trigger) {
        metrics.endpointChange();
        pending.add(new PendingChanges.Change(record.offset(), false, trigger));
    }

    private void queueSync() {
        health.queuedUpdate();
        metrics.queued(wiring.clock().now());
        runner.run();
    }

    private void maybeSnapshot(FoldedState state) {
        if (state.offset() - lastSnapshotOffset < wiring.options().snapshotInterval() || !snapshotting.compareAndSet(false, true)) {
            return;
        }
        lastSnapshotOffset = state.offset();
        wiring.background().schedule(() -> {
            try {
                byte[] data = state.toSnapshot();
                wiring.log().storeSnapshot(state.offset(), data);
                LOG.info("decision=snapshot-stored offset={} bytes={}", state.offset(), data.length);
            } catch (RuntimeException e) {
                LOG.warn("decision=continue reason=\"snapshot failed\" offset={} error=\"{}\"", state.offset(), e.toString());
            } finally {
                snapshotting.set(false);
            }
        });
    }

    private void onTailError(Throwable error) {
        if (closing) {
            return;
        }
        LOG.error("decision=stop-engine reason=\"the event log failed\" error=\"{}\"", error.toString(), error);
        syncWatch.close(error);
        failure.completeExceptionally(error);
    }

    /** The latest folded state (never null). */
    public FoldedState state() {
        return latest;
    }

    public ProxyHealth health() {
        return health;
    }

    public ProxyMetrics metrics() {
        return metrics;
    }

    /** Rollback and resume, for the admin endpoint. */
    public DataplaneControl control() {
        return control;
    }

    /** The health-check node ports of the programmed state. */
    public ServiceHealthChecks healthChecks() {
        return checks;
    }

    /** Completes exceptionally when the engine stopped on its own (the log failed); never completes normally. */
    public CompletableFuture<Void> failure() {
        return failure.copy();
    }

    /**
     * Stops tailing and syncing; waits (up to {@code timeout}) for a sync in progress to finish,
     * never interrupting a kernel transaction. Leaves every rule in place. Idempotent.
     */
    public void close(Duration timeout) {
        if (closing) {
            return;
        }
        closing = true;
        if (tail != null) {
            tail.dispose();
        }
        if (probe != null) {
            probe.dispose();
        }
        runner.close(timeout);
        wiring.recorder().close(timeout);
        syncWatch.close(new IllegalStateException("the engine stopped"));
        wiring.fold().dispose();
        wiring.sync().dispose();
        wiring.background().dispose();
        LOG.info("decision=engine-stopped offset={} rules=kept", latest.offset());
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(60));
    }
}
