package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.kproxy.model.NodeName;
import java.net.InetAddress;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LeaseElection} against fabric8's mock API server (CRUD mode, which serves Leases), with
 * short timings (a 6 s Lease, a 4 s renew deadline, 0.5 s retries): a replica that lost the Lease
 * competes again and leads once the Lease is free; one that left the election does not.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LeaseElectionIT {

    private static final String NS = "kube-system";
    private static final String NAME = "kproxy-recorder";

    private KubernetesMockServer server;
    private KubernetesClient client;
    private LeaseElection election;
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger stopped = new AtomicInteger();

    @BeforeEach
    void setUp() {
        server = startServer(0);
        client = new KubernetesClientBuilder().withConfig(config()).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    @AfterEach
    void tearDown() {
        if (election != null) {
            election.close();
        }
        client.close();
        server.destroy();
    }

    private static KubernetesMockServer startServer(int port) {
        MockWebServer web = new MockWebServer();
        KubernetesMockServer s = new KubernetesMockServer(web, new HashMap<>(), false);
        web.setDispatcher(new KubernetesCrudDispatcher());
        s.start(InetAddress.getLoopbackAddress(), port);
        return s;
    }

    private Config config() {
        Config config = Config.empty();
        config.setMasterUrl("http://127.0.0.1:" + server.getPort());
        return config;
    }

    private void join(String identity) {
        KubeSourceOptions options = KubeSourceOptions.defaults(new NodeName(identity)).withMasterUrl("http://127.0.0.1:" + server.getPort());
        election = LeaseElection.join(options, new LeaseElection.Settings(NS, NAME, identity, Duration.ofSeconds(6), Duration.ofSeconds(4),
                Duration.ofMillis(500)), started::incrementAndGet, stopped::incrementAndGet, id -> { });
    }

    private Lease lease() {
        return client.leases().inNamespace(NS).withName(NAME).get();
    }

    private String holder() {
        Lease l = lease();
        return l == null ? null : l.getSpec().getHolderIdentity();
    }

    @Test
    void aReplicaWhoseLeaseWasTakenCompetesAgainAndLeadsOnceItExpires() {
        join("recorder-1");
        await("leads").atMost(Duration.ofSeconds(20)).until(() -> started.get() == 1);
        assertThat(holder()).isEqualTo("recorder-1");

        // Another holder takes the Lease (as one that saw it expire during a long pause would) and never renews it.
        client.leases().inNamespace(NS).withName(NAME).edit(l -> {
            l.getSpec().setHolderIdentity("intruder");
            l.getSpec().setRenewTime(ZonedDateTime.now());
            l.getSpec().setLeaseTransitions(l.getSpec().getLeaseTransitions() + 1);
            return l;
        });
        await("stops leading").atMost(Duration.ofSeconds(20)).until(() -> stopped.get() == 1);
        await("leads again once the taken Lease expired").atMost(Duration.ofSeconds(30)).until(() -> started.get() == 2);
        assertThat(holder()).isEqualTo("recorder-1");
        assertThat(lease().getSpec().getLeaseTransitions()).as("intruder, then back").isEqualTo(2);
        assertThat(election.rejoins()).isEqualTo(1);
        assertThat(stopped.get()).isEqualTo(1);
    }

    @Test
    void aHolderCutOffFromTheApiServerPastItsRenewDeadlineStopsAndLeadsAgainWhenItReturns() {
        join("recorder-1");
        await("leads").atMost(Duration.ofSeconds(20)).until(() -> started.get() == 1);
        int port = server.getPort();
        server.destroy(); // the API server goes away (its objects with it, as a fresh one)
        await("stops leading past the renew deadline").atMost(Duration.ofSeconds(30)).until(() -> stopped.get() == 1);
        assertThat(started.get()).isEqualTo(1);

        server = startServer(port);
        await("leads again").atMost(Duration.ofSeconds(30)).until(() -> started.get() == 2);
        assertThat(holder()).isEqualTo("recorder-1");
        assertThat(election.rejoins()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aReplicaThatLeftReleasesTheLeaseAndDoesNotCompeteAgain() throws Exception {
        join("recorder-1");
        await("leads").atMost(Duration.ofSeconds(20)).until(() -> started.get() == 1);
        election.close();
        assertThat(stopped.get()).as("closing while leading stops leading").isEqualTo(1);
        // fabric8's release: the Lease expires one second after (its merge patch leaves the holder's name).
        Lease released = lease();
        assertThat(released.getSpec().getLeaseDurationSeconds()).as("released").isEqualTo(1);
        Thread.sleep(2_000); // four retry periods: a replica still competing would have renewed the expired Lease
        assertThat(lease().getSpec().getRenewTime()).as("nobody renewed it").isEqualTo(released.getSpec().getRenewTime());
        assertThat(started.get()).isEqualTo(1);
        assertThat(election.rejoins()).isZero();
    }
}
