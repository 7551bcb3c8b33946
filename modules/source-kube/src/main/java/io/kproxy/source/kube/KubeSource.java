package io.kproxy.source.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.source.kube.internal.AppendQueue;
import io.kproxy.source.kube.internal.ClientFactory;
import io.kproxy.source.kube.internal.ClientSettings;
import io.kproxy.source.kube.internal.EventSink;
import io.kproxy.source.kube.internal.KindLedger;
import io.kproxy.source.kube.internal.KindSpec;
import io.kproxy.source.kube.internal.KindWatch;
import io.kproxy.source.kube.internal.RawObject;
import io.kproxy.source.kube.internal.RawObject.RawService;
import io.kproxy.source.kube.internal.Reachability;
import io.kproxy.source.kube.internal.Redactor;
import io.kproxy.source.kube.internal.RequestObserver;
import io.kproxy.source.kube.internal.SourceStats;
import io.kproxy.source.kube.internal.WatchLiveness;
import io.kproxy.source.kube.internal.Watchdog;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the API server (Services and EndpointSlices without the service-proxy-name and
 * headless labels, this node's Node, and the {@code networking.k8s.io/v1} ServiceCIDRs) and
 * appends every observation to the event log, in order, with relist barriers. Item by item:
 *
 * <ul>
 *   <li>On {@link #start()}, each kind is listed in pages and compared with the
 *       {@link KnownObjects} the log already holds: only new or changed objects are appended,
 *       vanished ones become deletes with {@code finalStateUnknown=true}, and a barrier follows
 *       ({@code SourceSynced} on a kind's first sync ever, {@code SourceRelisted} on a restart
 *       that found differences; nothing at all on a restart that found none). A restart given
 *       the previous process's {@link ResumePoint} resumes the watches of Services and
 *       EndpointSlices there instead of listing them, when the API server is the same one
 *       (its address, and the uid of its {@code default/kubernetes} Service as the log holds it)
 *       and still has those versions; otherwise they are listed as above
 *       (docs/operations.md, "Restart").</li>
 *   <li>fabric8 resumes watches after a disconnect and relists after a 410 Gone; each relist
 *       ends with {@code SourceRelisted}. A watchdog forces a relist when a watch stays closed
 *       (a plain HTTP 410 on reconnect, which fabric8 retries forever), after client-go's backoff
 *       when the watch met a 410, and when a watch outlives its request's timeout (a half-open
 *       connection; {@link KubeSourceOptions#minWatchTimeout()}).</li>
 *   <li>Appends go through one bounded queue and one appender thread; a refused append (full
 *       disk) is retried with backoff while the queue fills and informer callbacks block: no
 *       observation is dropped or reordered.</li>
 * </ul>
 *
 * <p>Threading: all methods are thread-safe and non-blocking except {@link #close()}, which
 * waits a few seconds at most for queued events. State listeners run on the source's monitor
 * thread. Nothing here accepts or returns null.
 */
public final class KubeSource implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubeSource.class);
    /** The kinds whose watches a restart may resume: the large ones (a Node and the ServiceCIDRs are a list of a few objects). */
    private static final Set<ResourceKind> RESUMABLE = EnumSet.of(ResourceKind.SERVICE, ResourceKind.ENDPOINT_SLICE);
    /** The Service every API server creates for itself; its uid names the cluster. */
    private static final String API_SERVICE_NAMESPACE = "default";
    private static final String API_SERVICE_NAME = "kubernetes";

    private final KubeSourceOptions options;
    private final SourceStats stats;
    private final AppendQueue queue;
    private final ClientSettings settings;
    private final RequestObserver observer;
    private volatile KubernetesClient client;   // replaced by resetConnections()
    private final Reachability reachability;
    private final WatchLiveness liveness;
    private final List<KindWatch<?>> watches = new ArrayList<>();
    private final Watchdog watchdog;
    private final ScheduledExecutorService monitor;
    private final ExecutorService relister;
    private final CompletableFuture<Void> synced;
    private final KnownObjects known;
    private boolean started;
    private boolean closed;

    private KubeSource(KubeSourceOptions options, EventLog log, KnownObjects known, Clock clock, boolean everyNode) {
        this.options = options;
        this.known = known;
        this.stats = new SourceStats(clock);
        this.queue = new AppendQueue(log, options.sourceName(), options.queueCapacity(), options.appendBatch(),
                options.appendBackoffInitial(), options.appendBackoffMax(), stats);
        EventSink sink = new EventSink() {
            @Override
            public boolean emit(ClusterEvent event) throws InterruptedException {
                return queue.put(event);
            }

            @Override
            public boolean afterDurable(Runnable action) throws InterruptedException {
                return queue.afterDurable(action);
            }
        };
        this.settings = ClientFactory.settings(options);
        this.reachability = new Reachability(settings.server(), settings.authentication(),
                Reachability.hintFor(settings), System::nanoTime);
        this.liveness = new WatchLiveness(options.minWatchTimeout(), System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
        this.observer = new RequestObserver(stats, reachability, settings.token(), liveness);
        this.client = ClientFactory.create(settings, options, observer);
        LOG.info("decision=configure-client origin=\"{}\" address={} auth=\"{}\"", settings.origin(), settings.server(),
                settings.authentication());
        watches.add(watch(KindSpec.services(), known, sink));
        watches.add(watch(KindSpec.endpointSlices(), known, sink));
        watches.add(watch(everyNode ? KindSpec.nodes() : KindSpec.node(options.nodeName()), known, sink));
        watches.add(watch(KindSpec.serviceCidrs(), known, sink));
        this.synced = CompletableFuture.allOf(watches.stream().map(KindWatch::settled).toArray(CompletableFuture[]::new));
        stats.bind(() -> watches.stream().allMatch(KindWatch::isWatching), synced::isDone, queue::depth);
        this.monitor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("kproxy-source-monitor").daemon(true).factory());
        this.relister = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("kproxy-source-relist").daemon(true).factory());
        this.watchdog = new Watchdog(watches, options.watchdogGrace(), options.relistBackoffMax(), liveness, System::nanoTime,
                () -> ThreadLocalRandom.current().nextDouble(), relister, this::resetConnections,
                () -> !reachability.troubled());
    }

    private <T extends RawObject> KindWatch<T> watch(KindSpec<T> spec, KnownObjects known, EventSink sink) {
        ResourceKind kind = spec.kind();
        KindLedger ledger = new KindLedger(kind, known.objects(kind), known.deferred(kind), known.reader(), known.synced(kind), sink, stats);
        return new KindWatch<>(spec, () -> client, ledger, stats, options.listPageSize(), reachability, liveness);
    }

    /**
     * A source for {@code options} that appends to {@code log}, knowing that the log already
     * holds {@code known}. Builds the API client (reading the kubeconfig, blocking) but contacts
     * nothing until {@link #start()}.
     *
     * @throws ClientConfigException   when the kubeconfig, a file it names or the in-cluster
     *                                  environment is unusable (see {@link #checkClientConfig})
     * @throws IllegalArgumentException when the client cannot be configured otherwise; the
     *                                  message carries no credential
     */
    public static KubeSource create(KubeSourceOptions options, EventLog log, KnownObjects known) {
        return make(options, log, known, false);
    }

    /**
     * As {@link #create}, for the cluster recorder ({@code kproxy record}, docs/kafka.md): it
     * records every Node, not one node's, since each follower folds its own from the cluster's
     * log; {@code options.nodeName()} only names the recorder in its Events and logs.
     */
    public static KubeSource createRecorder(KubeSourceOptions options, EventLog log, KnownObjects known) {
        return make(options, log, known, true);
    }

    private static KubeSource make(KubeSourceOptions options, EventLog log, KnownObjects known, boolean everyNode) {
        try {
            return new KubeSource(options, log, known, Clock.systemUTC(), everyNode);
        } catch (ClientConfigException e) {
            throw e;
        } catch (RuntimeException e) {
            // fabric8's messages may quote what it was given (a key, a header): keep the cause's
            // class and a scrubbed message only.
            throw new IllegalArgumentException("cannot configure the Kubernetes client: " + e.getClass().getSimpleName()
                    + ": " + Redactor.scrub(e.getMessage()));
        }
    }

    /**
     * Checks, before anything else starts, that the API client can be configured from
     * {@code options}: the kubeconfig parses, its current context, cluster and user exist, every
     * file it names ({@code tokenFile}, certificates, keys, certificate authority) can be read,
     * a token file holds a token, an exec plugin is described completely; or, without a
     * kubeconfig and {@code --master}, that the in-cluster environment and service account
     * token are there. Blocking file I/O; runs no plugin and contacts nothing.
     *
     * @return where the client will connect and how it will authenticate, for a log line
     *         (names sources, never credentials)
     * @throws ClientConfigException naming the field and the reason, never a credential
     */
    public static String checkClientConfig(KubeSourceOptions options) {
        ClientSettings s = ClientFactory.settings(options);
        return "address=" + s.server() + " auth=\"" + s.authentication() + "\" origin=\"" + s.origin() + "\"";
    }

    /**
     * Starts the appender, the four informers (or, for the kinds it resumes, their watches: on a
     * thread of their own, after one request that checks the API server's identity) and the
     * watchdog; returns at once.
     */
    public synchronized void start() {
        if (started || closed) {
            throw new IllegalStateException(closed ? "source is closed" : "source already started");
        }
        started = true;
        queue.start();
        Map<KindWatch<?>, String> resume = resumable();
        for (KindWatch<?> w : watches) {
            if (!resume.containsKey(w)) {
                w.start(KindLedger.Origin.START);
            }
        }
        if (!resume.isEmpty()) {
            Thread.ofVirtual().name("kproxy-source-resume").start(() -> resume(resume));
        }
        long tick = options.watchdogTick().toMillis();
        monitor.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
        LOG.info("decision=start-source node={} source={} page_size={}", options.nodeName(), options.sourceName(),
                options.listPageSize());
    }

    /** The kinds to resume, with their versions: none unless the point is from this API server and the log has synced them. */
    private Map<KindWatch<?>, String> resumable() {
        ResumePoint point = known.resumePoint();
        Map<KindWatch<?>, String> resume = new LinkedHashMap<>();
        if (point.versions().isEmpty()) {
            return resume;
        }
        String why = "";
        if (!point.server().equals(settings.server())) {
            why = "another-api-server";
        } else if (known.apiServiceUid().isEmpty()) {
            why = "no-api-service-in-log";
        }
        for (KindWatch<?> w : watches) {
            String version = point.version(w.kind());
            if (RESUMABLE.contains(w.kind()) && !version.isEmpty() && known.synced(w.kind()) && why.isEmpty()) {
                resume.put(w, version);
            }
        }
        if (!why.isEmpty()) {
            LOG.info("decision=list-all reason={} resume_server={} server={}", why, point.server(), settings.server());
        }
        return resume;
    }

    /**
     * Resumes the watches of {@code resume} where the API server is the one the log's
     * {@code default/kubernetes} Service came from (one list of that Service); lists them
     * otherwise, or when that request fails. Runs on its own thread.
     */
    private void resume(Map<KindWatch<?>, String> resume) {
        String uid;
        boolean read = true;
        try {
            uid = client.resources(RawService.class).inNamespace(API_SERVICE_NAMESPACE).withField("metadata.name", API_SERVICE_NAME)
                    .list().getItems().stream().map(s -> s.json().object("metadata").string("uid").orElse(""))
                    .findFirst().orElse("");
        } catch (RuntimeException e) {
            uid = "";
            read = false;
            LOG.info("decision=list-all reason=api-service-unread error=\"{}\"", Redactor.scrub(e.getMessage()));
        }
        boolean same = !uid.isEmpty() && uid.equals(known.apiServiceUid());
        if (!same && !uid.isEmpty()) {
            LOG.warn("decision=list-all reason=another-cluster api_service_uid={} in_log={}", uid, known.apiServiceUid());
        } else if (!same && read) {
            LOG.info("decision=list-all reason=no-api-service-on-server in_log={}", known.apiServiceUid());
        }
        for (Map.Entry<KindWatch<?>, String> r : resume.entrySet()) {
            if (same) {
                r.getKey().resume(r.getValue());
            } else {
                r.getKey().start(KindLedger.Origin.START);
            }
        }
    }

    /**
     * Where this source's watches stopped, for the next start of the same node to resume them
     * (see {@link ResumePoint}); {@link ResumePoint#NONE} unless it is closed and every event it
     * queued is in the log.
     */
    public ResumePoint resumePoint() {
        synchronized (this) {
            if (!closed || !queue.drained()) {
                return ResumePoint.NONE;
            }
        }
        Map<ResourceKind, String> versions = new EnumMap<>(ResourceKind.class);
        for (KindWatch<?> w : watches) {
            String position = w.ledger().position();
            if (RESUMABLE.contains(w.kind()) && !position.isEmpty()) {
                versions.put(w.kind(), position);
            }
        }
        return new ResumePoint(settings.server(), versions);
    }

    private void tick() {
        try {
            reachability.tick();
            if (!stats.hasFailed()) {
                watchdog.tick();
            }
            stats.publish();
        } catch (RuntimeException e) {
            LOG.warn("decision=continue-monitor error={}", e.toString());
        }
    }

    /**
     * Completes once every kind's first list in this process is durable in the log (whether or
     * not it needed to append anything), ServiceCIDRs excepted when the API server does not serve
     * them (a 404) or refuses them to this user (a 403; see {@link KindSpec#optional()}). Never completes if the source fails first.
     */
    public CompletableFuture<Void> synced() {
        return synced.copy();
    }

    /** The current state (does not block). */
    public SourceState state() {
        return stats.snapshot();
    }

    /** Adds a listener for state changes (see {@link SourceStateListener} for threading). */
    public void addListener(SourceStateListener listener) {
        stats.addListener(listener);
    }

    /**
     * A watch outlived its deadline: its connection is half-open, and so, most likely, is every
     * other connection to the API server (they share the path that went silent), idle pooled ones
     * included, which the next list would reuse and wait on. As client-go closes its one HTTP/2
     * connection when a ping goes unanswered and every reflector starts again: a new client (new
     * connections), every kind relisted on it, then the old client released. Runs on the relist
     * thread.
     */
    private void resetConnections() {
        KubernetesClient old;
        synchronized (this) {
            if (closed) {
                return;
            }
            old = client;
            client = ClientFactory.create(settings, options, observer);
        }
        LOG.warn("decision=reset-connections reason=watch-past-deadline address={} kinds={}", settings.server(), watches.size());
        for (KindWatch<?> w : watches) {
            w.start(KindLedger.Origin.WATCHDOG);
        }
        old.close();
    }

    /** Stops the informers, appends what is queued (for up to 5 s), releases the client. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // Release informer threads blocked on a full queue first: a watchdog relist in progress
        // may be waiting for them, and closing an informer waits for the watchdog.
        queue.stopAccepting();
        monitor.shutdownNow();
        relister.shutdownNow();
        for (KindWatch<?> w : watches) {
            w.close();
        }
        queue.close(Duration.ofSeconds(5));
        client.close();
        stats.publish();
        LOG.info("decision=stop-source node={} appended={}", options.nodeName(), stats.snapshot().appended());
    }
}
