package io.kproxy.source.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.kproxy.source.kube.internal.ClientFactory;
import io.kproxy.source.kube.internal.ClientSettings;
import io.kproxy.source.kube.internal.Reachability;
import io.kproxy.source.kube.internal.RequestObserver;
import io.kproxy.source.kube.internal.SourceStats;
import io.kproxy.source.kube.internal.WatchLiveness;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease with fabric8's {@link LeaderElector}
 * (client-go's {@code tools/leaderelection}, whose timings it copies): the cluster recorder's
 * replicas ({@code kproxy record}, docs/kafka.md) compete for one Lease and only the holder
 * records. A holder that cannot renew within {@code renewDeadline} stops leading; a Lease not
 * renewed for {@code leaseDuration} may be taken. A replica that lost the Lease competes again one
 * {@code retryPeriod} later, so an API server outage longer than the renew deadline does not leave
 * it out of the election for good. Leadership alone is not fencing: two holders
 * can overlap by a clock skew or a paused process, which is why the recorder also fences at the
 * Kafka producer. Its own API client (the source's settings). Thread-safe; callbacks run on the
 * elector's thread ({@code onStopLeading} at {@link #close()} may run on the closing thread) and
 * must not block for long.
 *
 * @see <a href="https://github.com/kubernetes/client-go/blob/master/tools/leaderelection/leaderelection.go">client-go leaderelection.go</a>
 */
public final class LeaseElection implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);

    /**
     * @param namespace     the Lease's namespace
     * @param name          the Lease's name
     * @param identity      this replica's holder identity (its pod name)
     * @param leaseDuration how long a Lease not renewed stays held (client-go's default 15 s)
     * @param renewDeadline how long the holder keeps trying to renew before it gives up (10 s)
     * @param retryPeriod   between two attempts (2 s)
     */
    public record Settings(String namespace, String name, String identity, Duration leaseDuration, Duration renewDeadline,
            Duration retryPeriod) {
        public Settings {
            if (namespace == null || namespace.isBlank() || name == null || name.isBlank() || identity == null || identity.isBlank()) {
                throw new IllegalArgumentException("namespace, name and identity are required");
            }
            if (leaseDuration.compareTo(renewDeadline) <= 0 || renewDeadline.compareTo(retryPeriod) <= 0) {
                throw new IllegalArgumentException("need leaseDuration > renewDeadline > retryPeriod");
            }
        }
    }

    private final KubernetesClient client;
    private final ScheduledExecutorService executor;
    private final Settings settings;
    private final LeaderCallbacks callbacks;
    private final Object lock = new Object();
    private boolean closed;              // guarded by lock
    private boolean leading;             // guarded by lock: onStartLeading ran and onStopLeading not yet
    private CompletableFuture<?> running; // guarded by lock: the current elector's loop
    private final AtomicInteger rejoins = new AtomicInteger();
    private final Runnable onStopLeading;

    private LeaseElection(KubernetesClient client, ScheduledExecutorService executor, Settings settings, Runnable onStartLeading,
            Runnable onStopLeading, Consumer<String> onNewLeader) {
        this.client = client;
        this.executor = executor;
        this.settings = settings;
        this.onStopLeading = onStopLeading;
        this.callbacks = new LeaderCallbacks(() -> {
            synchronized (lock) {
                leading = true;
            }
            onStartLeading.run();
        }, () -> {
            stopped();
            rejoinLater();
        }, onNewLeader);
    }

    /** Runs {@code onStopLeading} once per leadership, whichever thread ends it first (the elector's, or {@link #close()}). */
    private void stopped() {
        synchronized (lock) {
            if (!leading) {
                return;
            }
            leading = false;
            lock.notifyAll();
        }
        onStopLeading.run();
    }

    /**
     * Joins the election. {@code onStartLeading} runs when this replica becomes the holder,
     * {@code onStopLeading} when it lost the Lease (or at {@link #close()} while leading);
     * {@code onNewLeader} with every holder seen. A replica that lost the Lease (it could not renew
     * within the renew deadline, say while the API server restarted, or another took it) stays a
     * candidate: after {@code retryPeriod} it competes again, so it can lead again, each time with
     * {@code onStartLeading}.
     */
    public static LeaseElection join(KubeSourceOptions client, Settings s, Runnable onStartLeading, Runnable onStopLeading,
            Consumer<String> onNewLeader) {
        ClientSettings settings = ClientFactory.settings(client);
        Reachability quiet = new Reachability(settings.server(), settings.authentication(), "", System::nanoTime);
        // The election makes no watch: the liveness only gives a watch request its timeout, as for the source's.
        // No retries inside the client (the elector retries every retryPeriod, and checks its renew
        // deadline between attempts) and each request bounded by the renew deadline, as upstream's
        // lock client: otherwise fabric8's backoff kept one failed renewal going for ~20 s, past the
        // Lease's expiry, before the holder learned it had lost it.
        KubernetesClient k = ClientFactory.create(settings, client, new RequestObserver(new SourceStats(Clock.systemUTC()), quiet,
                settings.token(), new WatchLiveness(client.minWatchTimeout(), System::nanoTime, () -> 0.0)), 0, s.renewDeadline());
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("kproxy-lease").daemon().factory());
        LeaseElection e = new LeaseElection(k, executor, s, onStartLeading, onStopLeading, onNewLeader);
        LOG.info("decision=join-election lease={}/{} identity={}", s.namespace(), s.name(), s.identity());
        e.compete();
        return e;
    }

    /** How many times this replica joined the election again after it lost the Lease. */
    public int rejoins() {
        return rejoins.get();
    }

    /**
     * Starts an elector: fabric8's ends for good once its holder stops leading (as upstream's
     * {@code RunOrDie} returns, and the components using it exit so that their restart competes
     * again), so each leadership needs a new one. The previous one has stopped by then: its renew
     * loop ended, which is what called {@code onStopLeading}.
     */
    private void compete() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            LeaderElector elector = new LeaderElector(client, new LeaderElectionConfigBuilder().withName(settings.name())
                    .withLock(new LeaseLock(settings.namespace(), settings.name(), settings.identity()))
                    .withLeaseDuration(settings.leaseDuration()).withRenewDeadline(settings.renewDeadline())
                    .withRetryPeriod(settings.retryPeriod()).withReleaseOnCancel(true).withLeaderCallbacks(callbacks).build(), executor);
            running = elector.start();
        }
    }

    /** After a lost Lease (not at close): competes again after one retry period. */
    private void rejoinLater() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            LOG.warn("decision=lost-lease lease={}/{} identity={} rejoin_in_ms={}", settings.namespace(), settings.name(),
                    settings.identity(), settings.retryPeriod().toMillis());
            try {
                executor.schedule(() -> {
                    rejoins.incrementAndGet();
                    compete();
                }, settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException ex) {
                LOG.debug("decision=ignore-rejoin reason=closed");
            }
        }
    }

    /**
     * Leaves the election, releasing the Lease if held; {@code onStopLeading} has run when this
     * returns if this replica was leading. Cancelling fabric8's elector releases and stops on the
     * closing thread, except when its acquisition had just succeeded ({@code onStartLeading} runs
     * before the elector's acquire step completes): then its renew loop, started on the elector's
     * thread, does both there. So this waits for that, at most one renew deadline (each of the
     * release's two requests is bounded by it), and stops leading itself if the release has not
     * ended by then; the client and the thread end after.
     */
    @Override
    public void close() {
        CompletableFuture<?> r;
        synchronized (lock) {
            closed = true;
            r = running;
        }
        if (r != null) {
            r.cancel(true);
        }
        boolean released = awaitNotLeading(settings.renewDeadline());
        executor.shutdownNow();
        client.close();
        if (!released) {
            LOG.warn("decision=stop-leading-at-close lease={}/{} identity={} reason=release-not-done-within-renew-deadline",
                    settings.namespace(), settings.name(), settings.identity());
            stopped();
        }
    }

    private boolean awaitNotLeading(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            try {
                for (long left = timeout.toNanos(); leading && left > 0; left = deadline - System.nanoTime()) {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return !leading;
        }
    }
}
