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
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease with fabric8's {@link LeaderElector}
 * (client-go's {@code tools/leaderelection}, whose timings it copies): the cluster recorder's
 * replicas ({@code kproxy record}, docs/kafka.md) compete for one Lease and only the holder
 * records. A holder that cannot renew within {@code renewDeadline} stops leading; a Lease not
 * renewed for {@code leaseDuration} may be taken. Leadership alone is not fencing: two holders
 * can overlap by a clock skew or a paused process, which is why the recorder also fences at the
 * Kafka producer. Its own API client (the source's settings). Thread-safe; callbacks run on the
 * elector's thread and must not block for long.
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
    private final ExecutorService executor;
    private final CompletableFuture<?> running;

    private LeaseElection(KubernetesClient client, ExecutorService executor, CompletableFuture<?> running) {
        this.client = client;
        this.executor = executor;
        this.running = running;
    }

    /**
     * Joins the election. {@code onStartLeading} runs when this replica becomes the holder,
     * {@code onStopLeading} when it lost the Lease (or at {@link #close()} while leading);
     * {@code onNewLeader} with every holder seen.
     */
    public static LeaseElection join(KubeSourceOptions client, Settings s, Runnable onStartLeading, Runnable onStopLeading,
            Consumer<String> onNewLeader) {
        ClientSettings settings = ClientFactory.settings(client);
        Reachability quiet = new Reachability(settings.server(), settings.authentication(), "", System::nanoTime);
        // The election makes no watch: the liveness only gives a watch request its timeout, as for the source's.
        KubernetesClient k = ClientFactory.create(settings, client, new RequestObserver(new SourceStats(Clock.systemUTC()), quiet,
                settings.token(), new WatchLiveness(client.minWatchTimeout(), System::nanoTime, () -> 0.0)));
        ExecutorService executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("kproxy-lease").daemon().factory());
        LeaderElector elector = new LeaderElector(k, new LeaderElectionConfigBuilder().withName(s.name())
                .withLock(new LeaseLock(s.namespace(), s.name(), s.identity())).withLeaseDuration(s.leaseDuration())
                .withRenewDeadline(s.renewDeadline()).withRetryPeriod(s.retryPeriod()).withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(onStartLeading, onStopLeading, onNewLeader)).build(), executor);
        LOG.info("decision=join-election lease={}/{} identity={}", s.namespace(), s.name(), s.identity());
        return new LeaseElection(k, executor, elector.start());
    }

    /** Leaves the election (releasing the Lease if held); the client and thread end. */
    @Override
    public void close() {
        running.cancel(true);
        executor.shutdownNow();
        client.close();
    }
}
