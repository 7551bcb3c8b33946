package io.kproxy.app;

import io.kproxy.admin.AdminAccess;
import io.kproxy.admin.AdminServer;
import io.kproxy.app.node.NodeSettings;
import io.kproxy.app.node.Sysctls;
import io.kproxy.backend.Backend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.Availability;
import io.kproxy.config.ConfigTrees;
import io.kproxy.config.KproxyConfig;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.ProxyMode;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineClock;
import io.kproxy.engine.EngineOptions;
import io.kproxy.engine.MeteredEventLog;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.healthcheck.HealthCheckServers;
import io.kproxy.healthcheck.StatusServers;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.JournalProblem;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.RetentionPolicy;
import io.kproxy.journal.kafka.Follower;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.ui.UiServer;
import io.kproxy.listen.Limits;
import io.kproxy.source.kube.EventRecorder;
import io.kproxy.source.kube.EventRecorderOptions;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.ResumePoint;
import io.kproxy.source.kube.KubeSource;
import io.kproxy.source.kube.KubeSourceOptions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kproxy run}: the node agent, wired in the order that keeps its promises.
 *
 * <ol>
 *   <li>Nothing is refused here: {@link RunConfig} validated the configuration in full, including
 *       {@link #availability()} (a mode without an installed backend, an event log this build does
 *       not have), before {@link #start} is called.</li>
 *   <li>The health and metrics ports are bound (a bind failure is fatal only with
 *       {@code bindAddressHardFail}, as upstream).</li>
 *   <li>The journal is opened (a torn tail is cut; damage is kept aside and its offsets never
 *       reused, see docs/operations.md, "Damaged journal"), {@code ConfigRecorded} appended; the other
 *       installed modes' leftovers are removed, as upstream does at start.</li>
 *   <li>The engine rebuilds the state from the newest snapshot plus the suffix and, when the
 *       journal says Services and EndpointSlices had synced, reprograms the kernel at once with
 *       one full sync: a restarted proxy serves before it reaches the API server.</li>
 *   <li>The servers start, and the admin socket (rollback, resume, status; a bind failure is
 *       fatal only with {@code bindAddressHardFail}, as for the other servers), and, with
 *       {@code --ui-listen}, the read-only journal page (docs/ui.md; a bind failure is logged and
 *       the agent runs without it); the source
 *       starts, told what the log already holds so that a clean restart appends nothing; then
 *       upstream's {@code Starting} Event is recorded (the Event recorder is made first, so that
 *       a refused node setting or an unbindable port before it is recorded too, and closed last).</li>
 * </ol>
 *
 * <p>{@link #close()} stops in reverse order and never removes a rule: a stopping or restarting
 * proxy leaves traffic flowing. {@link #close()} is idempotent and may be called from any thread,
 * also while {@link #start} runs.
 */
final class Agent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
    /** How long a rollback or resume waits for the sync that programs it. */
    static final Duration ADMIN_SYNC_TIMEOUT = Duration.ofSeconds(60);

    private final Deque<AutoCloseable> toClose = new ConcurrentLinkedDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Engine engine;
    private volatile CompletableFuture<Void> followerFailure = new CompletableFuture<>();

    /** Where to serve the read-only journal page ({@code --ui-listen}), or null: off by default. */
    private final InetSocketAddress uiAddress;

    Agent() {
        this(null);
    }

    /** An agent that also serves {@code kproxy ui}'s page for its own journal on {@code uiAddress} (docs/ui.md). */
    Agent(InetSocketAddress uiAddress) {
        this.uiAddress = uiAddress;
    }

    /** A start that cannot proceed; nothing was touched when it is thrown before {@link #start} bound a port. */
    static final class StartFailure extends Exception {
        StartFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Starts everything. {@link #close()} may run concurrently (a SIGTERM during the start): the
     * start then stops at the next step and what it had started is closed.
     *
     * @param master the API server URL given with {@code --master}, overriding the kubeconfig's
     */
    void start(RunConfig.Resolved resolved, Optional<String> master) throws StartFailure {
        ProxyConfig config = resolved.config();
        // Validated against availability() by RunConfig: a missing provider here is a programming error.
        BackendProvider provider = BackendProvider.forMode(config.mode().apiName())
                .orElseThrow(() -> new IllegalStateException("mode " + config.mode().apiName() + " passed validation without a backend"));
        try {
            startAll(resolved, provider, master);
        } catch (IOException | RuntimeException e) {
            close();
            throw new StartFailure(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
    }

    /** Takes ownership of a started component, unless the agent is stopping (then it is closed at once). */
    private <T extends AutoCloseable> T own(T component) {
        toClose.push(component);
        if (closed.get() && toClose.remove(component)) {
            closeQuietly(component);
            throw new IllegalStateException("stopped during start");
        }
        return component;
    }

    /**
     * What this build can run: the modes of the installed backends (each programs a kernel:
     * iptables, nftables, ipvs), and both event logs: the local source, or following the
     * cluster's Kafka topic ({@link KafkaFollowing}).
     */
    static Availability availability() {
        Set<ProxyMode> modes = EnumSet.noneOf(ProxyMode.class);
        BackendProvider.all().forEach(p -> ProxyMode.fromApiName(p.mode()).ifPresent(modes::add));
        return new Availability(modes, EnumSet.of(KproxyConfig.EventLogType.LOCAL, KproxyConfig.EventLogType.KAFKA));
    }

    /**
     * client-go's 5 min, or the seconds of the {@code kproxy.source.minWatchTimeoutSeconds} system
     * property: not a flag (upstream has none), only for tests and the chaos runner, which need
     * watches that end within seconds (docs/operations.md, "Watch liveness").
     */
    private static Duration minWatchTimeout() {
        String seconds = System.getProperty("kproxy.source.minWatchTimeoutSeconds", "");
        return seconds.isEmpty() ? Duration.ofMinutes(5) : Duration.ofSeconds(Long.parseLong(seconds));
    }

    private void startAll(RunConfig.Resolved resolved, BackendProvider provider, Optional<String> master) throws IOException {
        ProxyConfig config = resolved.config();
        String node = resolved.node().value();
        boolean kafka = config.kproxy().eventLog().type() == KproxyConfig.EventLogType.KAFKA;
        // Kafka mode: the topic first, so that a broker that cannot be reached, a missing topic or a
        // wrong layout is refused before anything binds, opens the journal or touches the kernel.
        KafkaEventLog topic = kafka ? own(KafkaEventLog.open(KafkaFollowing.options(config, resolved.node()))) : null;
        KubeSourceOptions options = KubeSourceOptions.defaults(resolved.node()).withKubeconfig(config.clientConnection().kubeconfig())
                .withMasterUrl(master.orElse(""))
                .withMinWatchTimeout(minWatchTimeout());
        // Upstream's Events (docs/operations.md, "Events"): first, so that a refusal below is recorded; closed last.
        EventRecorder events;
        if (kafka && !KafkaFollowing.apiClientConfigured(options.kubeconfig(), options.masterUrl(), System.getenv())) {
            LOG.info("decision=events-off reason=\"Kafka mode without an API client (no kubeconfig, --master or in-cluster environment)\"");
            events = EventRecorder.none();
        } else {
            events = own(startEvents(options));
        }
        // Upstream's conntrack sysctls and oomScoreAdj, before anything listens (docs/operations.md, "Node settings").
        UpstreamEvents.fromNodeSettings(node, NodeSettings.applyAtStart(config, Sysctls.host()))
                .forEach(events::record);
        StatusServers servers = own(StatusServers.bind(config, new BindFailureEvents(events, node)));

        Path dir = Path.of(config.kproxy().journalDir());
        KproxyConfig.RetentionConfig r = config.kproxy().retention();
        LocalJournal journal = own(LocalJournal.open(JournalOptions.defaults(dir).withFsyncWindow(config.kproxy().fsyncWindow())
                .withRetention(new RetentionPolicy(r.maxAge(), r.maxBytes()))));
        journal.tornTail().ifPresent(t -> LOG.warn("decision=continue reason=\"journal had a torn tail, cut at recovery\" detail=\"{}\"", t));
        journal.openProblems().stream().filter(p -> p.firstOffset() >= 0 && p.kind() != JournalProblem.Kind.TORN_TAIL).forEach(p ->
                LOG.error("decision=continue reason=\"the journal lost records; the state is folded from the intact ones and the relist "
                        + "corrects it\" kind={} file={} firstOffset={} lastOffset={}", p.kind(), p.file(), p.firstOffset(), p.lastOffset()));
        // Read and removed before this run appends anything, whatever the event log (docs/operations.md, "Restart").
        ResumePoint resume = SourceResumeFile.take(dir, journal.nextOffset(), journal.openProblems().isEmpty());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EventLog log = new MeteredEventLog(journal, registry, EngineClock.system(), () -> sizeOf(dir));
        long configOffset = log.append(EngineOptions.SOURCE, new ConfigRecorded(resolved.node(), ConfigTrees.toTree(config))).join();
        LOG.info("decision=config-recorded node={} mode={} offset={}", resolved.node(), config.mode().apiName(), configOffset);

        // The other modes' cleanup runs beside the state's load and the first list (at 100,000
        // Services it took 5.9 s, iptables-nft reading the node's whole nftables ruleset); every
        // kernel call of this mode's backend waits for it (AfterCleanup; docs/backends/iptables.md,
        // "Cleanup and other modes").
        CompletableFuture<Void> otherModesCleaned = CompletableFuture.runAsync(() -> cleanupOtherModes(provider),
                task -> Thread.ofPlatform().name("kproxy-cleanup").daemon().start(task));
        own(otherModesCleaned::join); // an agent that stops (or fails to start) lets the cleanup finish first
        Backend created;
        try {
            created = provider.create();
        } catch (RuntimeException e) {
            otherModesCleaned.join(); // a mode that cannot run is refused after the cleanup, as upstream's
            throw e;
        }
        Backend backend = own(new AfterCleanup(created, otherModesCleaned));
        engine = own(Engine.start(Engine.Wiring.production(log, backend, EngineOptions.of(config), registry)));
        servers.start(engine, config);
        own(new HealthCheckServers(engine, new BindFailureEvents(events, node))).start();
        startAdmin(Path.of(config.kproxy().adminSocket()), config.kproxy().adminGroup(), config.bindAddressHardFail());

        startUi(journal);

        if (topic != null) {
            Follower follower = KafkaFollowing.start(topic, log, resolved.node(), engine, registry);
            // The follower stops first, then the topic (which ends its waiting tail), before the engine and the journal.
            own(() -> {
                follower.close();
                topic.close();
                follower.await(Duration.ofSeconds(10));
            });
            followerFailure = follower.failure();
            events.record(UpstreamEvents.starting(node));
            LOG.info("decision=agent-started node={} mode={} journal={} event_log=kafka topic={}", resolved.node(), config.mode().apiName(),
                    dir, topic.options().topic());
            return;
        }
        KnownObjects known = KnownObjectsFromState.read(log, engine.state().cluster(), resume);
        KubeSource source = KubeSource.create(options, log, known);
        // Closed before the engine and the journal: once it has appended everything, where its watches stopped is kept for the next start.
        own(() -> {
            source.close();
            SourceResumeFile.write(dir, source.resumePoint(), log.nextOffset());
        });
        SourceMetrics sourceMetrics = new SourceMetrics(registry);
        engine.health().sourceConnected(false);
        source.addListener(s -> {
            engine.health().sourceConnected(s.connected());
            sourceMetrics.update(s);
        });
        source.start();
        // Upstream's birth cry, once the watches are started (cmd/kube-proxy/app/server.go).
        events.record(UpstreamEvents.starting(node));
        LOG.info("decision=agent-started node={} mode={} journal={}", resolved.node(), config.mode().apiName(), dir);
    }

    /**
     * The Event recorder, as {@code kube-proxy-<hostname>} (upstream's reporting instance; the
     * hostname as uname(2) gives it). None, with one line, when the API client cannot be
     * configured: the source's creation then fails with the reason.
     */
    private static EventRecorder startEvents(KubeSourceOptions options) {
        String host;
        try {
            host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException | RuntimeException e) {
            host = "";
        }
        try {
            return EventRecorder.toApiServer(options, EventRecorderOptions.defaults(host.isEmpty() ? options.nodeName().value() : host));
        } catch (RuntimeException e) {
            LOG.warn("decision=no-events reason=\"the API client cannot be configured\" error=\"{}\"", e.getMessage());
            return EventRecorder.none();
        }
    }

    /** The journal page, when asked for; a port it cannot bind is logged and the agent runs without it (the page is optional). */
    private void startUi(LocalJournal journal) {
        if (uiAddress == null) {
            return;
        }
        try {
            own(UiServer.forLog(journal, uiAddress));
        } catch (IOException e) {
            LOG.error("decision=continue-without-ui address={} error=\"{}\"", uiAddress, e.getMessage());
        }
    }

    /** The admin endpoint; skipped with an error (rollback unavailable) unless {@code hardFail}. */
    private void startAdmin(Path socket, String adminGroup, boolean hardFail) throws IOException {
        try {
            own(AdminServer.start(socket, AdminAccess.of(adminGroup), engine.control(), ADMIN_SYNC_TIMEOUT, Limits.ADMIN));
        } catch (IOException e) {
            if (hardFail) {
                throw new IOException("cannot serve the admin socket " + socket + ": " + e.getMessage(), e);
            }
            LOG.error("decision=continue-without-admin-socket path={} error=\"{}\"", socket, e.getMessage());
        }
    }

    /**
     * Upstream's start-up cleanup ({@code cmd/kube-proxy/app/server_linux.go}, {@code platformCleanup}):
     * the leftovers of every other installed mode go, ipvs included (a node switching from ipvs
     * to nftables keeps no virtual servers, sets or {@code kube-ipvs0}; each mode's cleanup
     * touches only what it owns, docs/backends/ipvs.md "Cleanup"). Best effort: a failure is
     * logged, the agent starts anyway.
     */
    private static void cleanupOtherModes(BackendProvider mine) {
        for (BackendProvider other : BackendProvider.all()) {
            if (other.mode().equals(mine.mode())) {
                continue;
            }
            try {
                // cleanupLeftovers, not create(): a mode the kernel cannot run (ipvs without ip_vs) may still have leftovers.
                other.cleanupLeftovers(Optional.empty());
                LOG.info("decision=cleaned-up-other-mode mode={}", other.mode());
            } catch (KernelException | RuntimeException e) {
                LOG.warn("decision=continue reason=\"cleanup of another mode failed\" mode={} error=\"{}\"", other.mode(), e.getMessage());
            }
        }
    }

    /** Completes exceptionally if the engine stops on its own (its log failed) or the Kafka follower stops for good. */
    CompletableFuture<Void> failure() {
        return CompletableFuture.anyOf(engine.failure(), followerFailure).thenApply(x -> null);
    }

    /** Bytes of the journal's files ({@code kproxy_journal_size_bytes}); -1 when unreadable. */
    private static long sizeOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Stops the source, the servers, the engine (waiting for a sync in progress), the backend and the journal. Rules stay. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        AutoCloseable c;
        while ((c = toClose.pollFirst()) != null) {
            closeQuietly(c);
        }
        LOG.info("decision=agent-stopped rules=kept");
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c instanceof Engine e) {
                e.close(Duration.ofSeconds(30));
            } else {
                c.close();
            }
        } catch (Exception e) {
            LOG.warn("decision=continue-stopping component={} error=\"{}\"", c.getClass().getSimpleName(), e.toString());
        }
    }
}
