package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.kproxy.events.ResourceKind;
import io.kproxy.model.Json;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fabric8 informer for one kind, and its replacement when the watchdog forces a relist.
 * Callbacks hand the objects' {@link Json} trees (see {@link RawObject}) to the kind's {@link KindLedger}.
 *
 * <p>fabric8 resumes watches after a disconnect and relists after a watch {@code ERROR} 410
 * ({@code Reflector.onClose}); the exception handler here keeps the informer retrying after any
 * other list or watch failure (fabric8's default gives up before the first sync, and on
 * watcher exceptions), so a proxy never stops watching on its own. Failures are logged as
 * client-go's reflector logs them ({@code tools/cache/reflector.go}: one line, the reason, no
 * stack): the first failure of an episode at WARN with the address, the authentication in use
 * and the API server's reason (a 401, a 403 naming the user); repeats of the same reason at
 * DEBUG; a 410 (expired resourceVersion, relisted) at INFO; network failures at DEBUG only, since
 * {@link Reachability} reports those once for all kinds; the end of an episode (the next
 * successful list) at INFO when it was warned about, else at DEBUG.
 *
 * <p>A kind the API server may not serve ({@link KindSpec#optional()}, ServiceCIDRs) that
 * answers 404 is said once at INFO with what the node does instead, marks the kind
 * {@link #settled() settled} so that it holds no sync back, and is retried quietly (DEBUG) with
 * fabric8's backoff: an API server upgraded later is picked up without a restart, and its first
 * list is logged at INFO. A 403 for such a kind (RBAC from before it was watched) is warned
 * about like any 403 and settles the kind too.
 *
 * <p>A restart may {@link #resume} the kind's watch where the previous process stopped instead
 * of listing (docs/operations.md, "Restart"): a plain fabric8 watch from that resourceVersion,
 * which fabric8 keeps open across the API server's routine closes (from the last version it
 * saw, bookmarks included). Any way it ends (a 410 Gone when the version has left the API
 * server's watch cache, a refused request, any other error) hands the kind to an informer, which
 * lists and compares as on any start. Thread-safe.
 */
public final class KindWatch<T extends RawObject> implements WatchedKind {

    private static final Logger LOG = LoggerFactory.getLogger(KindWatch.class);

    private final KindSpec<T> spec;
    private final Supplier<KubernetesClient> client;
    private final KindLedger ledger;
    private final SourceStats stats;
    private final long pageSize;
    private final Reachability reachability;
    private final WatchLiveness liveness;
    // A lock of their own: start() holds this object's lock while it may block on a full queue.
    private final Object episodeLock = new Object();
    private String failingReason = "";   // guarded by episodeLock
    private int failures;                // guarded by episodeLock
    private boolean warned;              // guarded by episodeLock
    private boolean absentSaid;          // guarded by episodeLock
    private final CompletableFuture<Void> absent = new CompletableFuture<>();
    private volatile SharedIndexInformer<T> informer;   // written under this object's lock
    private volatile Watch resumed;                      // the same; null once an informer runs
    private volatile boolean closed;

    /** @param client the source's current client (a new one after a half-open connection; see {@link Watchdog}) */
    public KindWatch(KindSpec<T> spec, Supplier<KubernetesClient> client, KindLedger ledger, SourceStats stats, long pageSize,
                     Reachability reachability, WatchLiveness liveness) {
        this.reachability = reachability;
        this.liveness = liveness;
        this.spec = spec;
        this.client = client;
        this.ledger = ledger;
        this.stats = stats;
        this.pageSize = pageSize;
    }

    public KindLedger ledger() {
        return ledger;
    }

    /**
     * Completes when the kind's first list in this process is durable in the log or, for an
     * optional kind, when the API server has answered that it does not serve it (404) or not to
     * this user (403).
     */
    public CompletableFuture<Void> settled() {
        if (!spec.optional()) {
            return ledger.firstListDurable();
        }
        return CompletableFuture.anyOf(ledger.firstListDurable(), absent).thenApply(x -> null);
    }

    @Override
    public ResourceKind kind() {
        return spec.kind();
    }

    @Override
    public boolean listing() {
        return ledger.listing();
    }

    @Override
    public void relist() {
        start(KindLedger.Origin.WATCHDOG);
    }

    /**
     * Starts a new informer generation (a full, paged list, then a watch), stopping the
     * previous informer if any. Does not wait for the list. May block while the ledger's
     * queue is full.
     */
    public synchronized void start(KindLedger.Origin origin) {
        if (closed) {
            return;
        }
        KindLedger.Generation generation = ledger.newGeneration(origin);
        if (informer != null) {
            informer.stop();
        }
        if (resumed != null) {
            resumed.close();
            resumed = null;
        }
        SharedIndexInformer<T> next = spec.informable().apply(client.get()).withLimit(pageSize).runnableInformer(0);
        // Keys and versions only: the source keeps no objects (see KeyVersionStore).
        next.itemStore(new KeyVersionStore<>(spec.empty()));
        next.exceptionHandler((started, error) -> {
            ApiFailure failure = ApiFailure.of(error);
            if (closed || informer != next) {
                // Closed, or replaced by a relist: a list still in flight fails (often with the
                // client's executor refusing work). Answering "retry" keeps fabric8 quiet: its
                // Reflector logs a refusal at ERROR ("will stop") but a retry at WARN, and its
                // reconnect does nothing once the informer is stopped, which it is by now.
                LOG.debug("decision=stop-list-watch kind={} reason={} error={}", spec.kind(),
                        closed ? "source-closed" : "informer-replaced", failure.reason());
                return true;
            }
            if (spec.optional() && failure.reason().equals("http-404")) {
                absent(failure);
                return true;
            }
            stats.error(spec.kind() + " list/watch failed (" + failure.reason() + "): " + failure.detail());
            failed(failure, started);
            if (spec.optional() && failure.reason().equals("http-403")) {
                // Permission missing (an older deploy/rbac.yaml): warned above, retried; the node
                // keeps its fallback meanwhile, so the kind holds no sync back either.
                absent.complete(null);
            }
            return true;
        });
        next.addEventHandler(new Handler(generation));
        informer = next;
        LOG.info("decision=start-informer kind={} origin={} page_size={}", spec.kind(), origin, pageSize);
        next.start().whenComplete((ignored, error) -> {
            if (error != null && !closed) {
                ApiFailure failure = ApiFailure.of(error);
                LOG.warn("decision=informer-stopped kind={} address={} reason={} detail=\"{}\"", spec.kind(),
                        reachability.address(), failure.reason(), failure.detail());
            }
        });
    }

    /**
     * Resumes the kind's watch at {@code resourceVersion} (the previous process's position)
     * without listing, unless a generation has started meanwhile. Blocks until the API server has
     * accepted or refused the watch; refused, the kind is listed as on any start
     * ({@link #start}). Once it is open, the kind is {@link #settled()} as soon as what was
     * queued before is durable.
     */
    public void resume(String resourceVersion) {
        KindLedger.Generation generation;
        synchronized (this) {
            if (closed || informer != null || resumed != null) {
                return;
            }
            generation = ledger.resumeGeneration(resourceVersion);
        }
        LOG.info("decision=resume-from-journal kind={} from_resource_version={}", spec.kind(), resourceVersion);
        ListOptions options = new ListOptionsBuilder().withResourceVersion(resourceVersion).withAllowWatchBookmarks(true).build();
        Watch watch;
        try {
            watch = spec.informable().apply(client.get()).watch(options, new Resumed(generation));
        } catch (RuntimeException e) {
            listInstead(generation, ApiFailure.of(e), "resume-refused");
            return;
        }
        synchronized (this) {
            if (closed || !ledger.current(generation)) {
                watch.close();
                return;
            }
            resumed = watch;
        }
        run("resume", () -> ledger.resumed(generation));
    }

    /** The resumed watch of {@code generation} ended or was refused: an informer lists the kind, unless something newer runs. */
    private void listInstead(KindLedger.Generation generation, ApiFailure failure, String why) {
        synchronized (this) {
            if (closed || !ledger.current(generation)) {
                return;
            }
        }
        LOG.info("decision=relist kind={} reason={} after={} detail=\"{}\"", spec.kind(), failure.reason(), why,
                Redactor.scrub(failure.detail()));
        start(KindLedger.Origin.START);
    }

    private void failed(ApiFailure failure, boolean started) {
        synchronized (episodeLock) {
            failedLocked(failure, started);
        }
    }

    private void failedLocked(ApiFailure failure, boolean started) {
        if (failure.reason().equals("http-410")) {
            // An expired resourceVersion: routine, the informer relists (client-go logs it at V(1)),
            // or the watchdog does after client-go's backoff if the informer waits longer.
            liveness.gone(spec.kind());
            LOG.info("decision=relist kind={} reason=http-410 started={}", spec.kind(), started);
            return;
        }
        failures++;
        boolean network = !failure.reason().startsWith("http-") && !failure.reason().equals("credentials");
        if (network || failure.reason().equals(failingReason)) {
            LOG.debug("decision=retry-list-watch kind={} address={} reason={} started={} failures={} detail=\"{}\"", spec.kind(),
                    reachability.address(), failure.reason(), started, failures, failure.detail());
        } else {
            LOG.warn("decision=retry-list-watch kind={} address={} reason={} auth=\"{}\" started={} detail=\"{}\"", spec.kind(),
                    reachability.address(), failure.reason(), reachability.authentication(), started, failure.detail());
            warned = true;
        }
        failingReason = failure.reason();
    }

    private void absent(ApiFailure failure) {
        synchronized (episodeLock) {
            if (!absentSaid) {
                absentSaid = true;
                LOG.info("decision=kind-not-served kind={} address={} reason={} consequence=\"{}\" detail=\"{}\"", spec.kind(),
                        reachability.address(), failure.reason(), spec.whenAbsent(), failure.detail());
            } else {
                LOG.debug("decision=retry-list-watch kind={} reason={} absent=true", spec.kind(), failure.reason());
            }
        }
        absent.complete(null);
    }

    private void recovered() {
        synchronized (episodeLock) {
            if (absentSaid) {
                LOG.info("decision=kind-served kind={} address={}", spec.kind(), reachability.address());
                absentSaid = false;
            }
            if (warned) {
                LOG.info("decision=list-watch-recovered kind={} address={} failures={} last_reason={}", spec.kind(),
                        reachability.address(), failures, failingReason);
            } else if (failures > 0) {
                LOG.debug("decision=list-watch-recovered kind={} failures={} last_reason={}", spec.kind(), failures, failingReason);
            }
            failures = 0;
            failingReason = "";
            warned = false;
        }
    }

    /** Whether the current informer's watch is open. Never blocks (state() relies on it). */
    @Override
    public boolean isWatching() {
        Watch watch = resumed;
        if (watch != null) {
            // fabric8's watch manager knows whether its current request is open; any other Watch is taken as open
            return !(watch instanceof AbstractWatchManager<?> manager) || manager.isWatching();
        }
        SharedIndexInformer<T> current = informer;
        try {
            return current != null && current.isWatching();
        } catch (NullPointerException e) {
            // fabric8 7.8's Reflector.isWatching() reads its watch future with Optional.of while
            // stop() (a relist replacing this informer) may have cleared it: a watch being closed.
            return false;
        }
    }

    /** Stops the informer; idempotent. */
    public synchronized void close() {
        closed = true;
        if (informer != null) {
            informer.stop();
        }
        if (resumed != null) {
            resumed.close();
        }
    }

    /** Runs one callback's step: a bad object is skipped and reported, never allowed to stop the watch. */
    private void run(String what, Step step) {
        try {
            step.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.info("decision=abandon-callback kind={} callback={} reason=interrupted", spec.kind(), what);
        } catch (RuntimeException e) {
            stats.skipped();
            stats.error(spec.kind() + " " + what + " not recorded: " + Redactor.scrub(e.getMessage()));
            LOG.warn("decision=skip-callback kind={} callback={} error=\"{}\"", spec.kind(), what, Redactor.scrub(e.toString()));
        }
    }

    /** A resumed watch's callbacks; fabric8 calls them serially, in order. */
    private final class Resumed implements Watcher<T> {
        private final KindLedger.Generation generation;

        Resumed(KindLedger.Generation generation) {
            this.generation = generation;
        }

        @Override
        public void eventReceived(Action action, T obj) {
            switch (action) {
                case ADDED, MODIFIED -> run("watch", () -> ledger.observed(generation, obj.json()));
                case DELETED -> run("watch", () -> ledger.deleted(generation, obj.json(), false));
                case BOOKMARK -> ledger.bookmarked(generation, obj.getMetadata() == null ? null : obj.getMetadata().getResourceVersion());
                case ERROR -> {
                    // fabric8 ends the watch with onClose
                }
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            ApiFailure failure = ApiFailure.of(cause);
            // off fabric8's thread: the new informer's generation may wait for the ledger
            Thread.ofVirtual().name("kproxy-source-resume-" + spec.kind()).start(() -> listInstead(generation, failure, "resumed-watch-ended"));
        }
    }

    /** One generation's callbacks; fabric8 calls them serially, in order. */
    private final class Handler implements ResourceEventHandler<T> {
        private final KindLedger.Generation generation;

        Handler(KindLedger.Generation generation) {
            this.generation = generation;
        }

        @Override
        public void onBeforeList(String lastSyncResourceVersion) {
            ledger.beforeList(generation, lastSyncResourceVersion);
        }

        @Override
        public void onList(String resourceVersion, boolean remainedEmpty) {
            recovered();
            run("list", () -> ledger.listed(generation, resourceVersion));
        }

        @Override
        public void onAdd(T obj) {
            run("add", () -> ledger.observed(generation, obj.json()));
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            run("update", () -> ledger.observed(generation, newObj.json()));
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            run("delete", () -> ledger.deleted(generation, obj.json(), deletedFinalStateUnknown));
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws InterruptedException;
    }
}
