package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.events.ResourceKind;
import io.kproxy.journal.MemoryEventLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Disconnects: a stopped API server, a 410 Gone watch event, a plain HTTP 410 on reconnect. */
class ReconnectIT {

    private ScriptedApiServer api;
    private MemoryEventLog log;
    private KubeSource source;

    @BeforeEach
    void setUp() {
        api = ScriptedApiServer.start();
        log = new MemoryEventLog();
        KubernetesClient c = api.client();
        Kube.create(c, Kube.service("a", "10.96.0.1", Map.of()));
        Kube.create(c, Kube.service("b", "10.96.0.2", Map.of()));
        Kube.create(c, Kube.slice("a-1", "a", "10.244.0.1", Map.of()));
        Kube.create(c, Kube.node(TestSources.NODE));
        // Every real API server that serves ServiceCIDRs holds the default one. (With an empty
        // collection, the informer relists it after the mock's restart instead of resuming.)
        Kube.create(c, Kube.serviceCidr("kubernetes", "10.96.0.0/16"));
    }

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        api.close();
        log.close();
    }

    private void startSource(KubeSourceOptions options) throws Exception {
        source = KubeSource.create(options, log, KnownObjects.empty());
        source.start();
        source.synced().get(30, TimeUnit.SECONDS);
        await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().connected());
    }

    @Test
    void theWatchResumesAfterTheApiServerComesBack() throws Exception {
        startSource(TestSources.options(api));
        List<SourceState> published = new CopyOnWriteArrayList<>();
        source.addListener(published::add);
        long mark = log.nextOffset();

        api.stop();
        await().atMost(30, TimeUnit.SECONDS).until(() -> !source.state().connected());
        // Listeners get the state at the source's monitor tick: the outage must outlast one before the
        // API server returns (in CI once it did not, and the listener saw only connected states).
        await().atMost(30, TimeUnit.SECONDS).until(() -> published.stream().anyMatch(s -> !s.connected()));
        api.restart();
        await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().connected());
        Kube.create(api.client(), Kube.service("c", "10.96.0.3", Map.of()));
        Kube.deleteService(api.client(), "a");

        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.of(log, ResourceKind.SERVICE, mark).size() >= 2);
        assertThat(LogView.all(log, mark)).containsExactly("observed ns1/c", "deleted ns1/a");
        SourceState state = source.state();
        assertThat(state.reconnects()).as("resumed, not relisted").isGreaterThanOrEqualTo(3);
        assertThat(state.relists()).isZero();
        await().atMost(30, TimeUnit.SECONDS).until(() -> !published.isEmpty() && published.getLast().connected());
        assertThat(published).as("the listener saw the outage and the recovery")
                .anyMatch(s -> !s.connected() && s.synced())
                .anyMatch(SourceState::connected);
    }

    @Test
    void aGoneEventRelistsAndReportsWhatVanishedMeanwhile() throws Exception {
        startSource(TestSources.options(api));
        long mark = log.nextOffset();

        api.mute("services");                    // the watch misses what happens next
        Kube.deleteService(api.client(), "b");
        api.goneOnNextWatch("services");         // its resourceVersion has expired by the time it comes back
        api.sever("services");

        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.of(log, ResourceKind.SERVICE, mark).size() >= 2);
        assertThat(LogView.all(log, mark)).containsExactly("deleted? ns1/b", "relisted SERVICE [ns1/a]");
        Kube.create(api.client(), Kube.service("d", "10.96.0.4", Map.of()));
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("observed ns1/d"));
        assertThat(source.state().relists()).isEqualTo(1);
        assertThat(source.state().forcedRelists()).isZero();
    }

    /**
     * The Services' watch misses a delete, then is severed and every reconnect answered with a
     * plain HTTP 410 (fabric8 retries those forever); returns how long until the watchdog forced
     * a relist (at most 40 s).
     */
    private Duration severWithPlainGoneUntilForcedRelist() {
        api.mute("services");
        Kube.deleteService(api.client(), "b");
        api.plainGoneOnWatch("services", true);
        long severedAt = System.nanoTime();
        api.sever("services");
        await().atMost(40, TimeUnit.SECONDS).until(() -> source.state().forcedRelists() >= 1);
        return Duration.ofNanos(System.nanoTime() - severedAt);
    }

    @Test
    void aPlainGoneOnReconnectIsCaughtByTheWatchdog() throws Exception {
        Duration grace = Duration.ofSeconds(1);
        startSource(TestSources.options(api).withWatchdog(Duration.ofMillis(100), grace, Duration.ofSeconds(4)));
        long mark = log.nextOffset();

        Duration took = severWithPlainGoneUntilForcedRelist();
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("relisted SERVICE [ns1/a]"));
        assertThat(LogView.all(log, mark)).startsWith("deleted? ns1/b", "relisted SERVICE [ns1/a]");
        // grace + a tick + fabric8's first reconnect delay, with room for a busy machine
        assertThat(took).isLessThan(Duration.ofSeconds(10));

        api.plainGoneOnWatch("services", false);
        Kube.create(api.client(), Kube.service("e", "10.96.0.5", Map.of()));
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("observed ns1/e"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().connected());
        System.out.println("plain-410 forced relist after ms=" + took.toMillis() + " state=" + source.state());
    }

    @Test
    void aPlainGoneOnReconnectIsRelistedAfterClientGosBackoffNotTheWatchdogsGrace() throws Exception {
        startSource(TestSources.options(api));       // a 60 s watchdog grace
        long mark = log.nextOffset();

        Duration took = severWithPlainGoneUntilForcedRelist();
        api.plainGoneOnWatch("services", false);
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("relisted SERVICE [ns1/a]"));
        assertThat(LogView.all(log, mark)).startsWith("deleted? ns1/b", "relisted SERVICE [ns1/a]");
        // 0.8-1.6 s after the 410 (client-go's reflector backoff), with room for a busy machine;
        // before, the watch stayed closed for the 60 s grace
        assertThat(took).isLessThan(Duration.ofSeconds(15));
        System.out.println("plain-410 relist after ms=" + took.toMillis() + " state=" + source.state());
    }

    /**
     * The 60-minute chaos soak's open violation (seed 20261126, {@code GONE_EVENT} at about
     * 1201 s; chaos/README.md, "Known violations"): a watch resume refused by a failed WebSocket
     * handshake reaches neither fabric8's informer nor a 410, and fabric8 retries the same
     * resourceVersion with a backoff growing to 32 s; the kind stayed without a watch for the
     * watchdog's 60 s grace, /healthz 503 meanwhile. The API server answers all along, so the
     * kind is relisted after fabric8's chance to resume and client-go's backoff.
     */
    @Test
    void aWatchRefusedByAFailedHandshakeIsRelistedSoonWhileTheApiServerAnswers() throws Exception {
        startSource(TestSources.options(api));       // a 60 s watchdog grace
        long mark = log.nextOffset();
        api.mute("services");
        Kube.deleteService(api.client(), "b");
        api.goneAsBodyOnWatch("services", true);
        long severedAt = System.nanoTime();
        api.sever("services");
        await().atMost(40, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("relisted SERVICE [ns1/a]"));
        Duration took = Duration.ofNanos(System.nanoTime() - severedAt);
        assertThat(LogView.all(log, mark)).startsWith("deleted? ns1/b", "relisted SERVICE [ns1/a]");
        // 5 s for fabric8's resume, then 0.8-1.6 s (client-go's backoff), with room for a busy
        // machine; before, the 60 s grace
        assertThat(took).isLessThan(Duration.ofSeconds(20));

        api.goneAsBodyOnWatch("services", false);
        Kube.create(api.client(), Kube.service("e", "10.96.0.5", Map.of()));
        await().atMost(30, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("observed ns1/e"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> source.state().connected());
        System.out.println("handshake-refused watch relisted after ms=" + took.toMillis() + " state=" + source.state());
    }

    @Test
    void aHalfOpenWatchIsRelistedOnceItOutlivesItsTimeout() throws Exception {
        // watch requests of 2-4 s; the deadline is 5 s past (WatchLiveness#slack)
        startSource(TestSources.options(api).withMinWatchTimeout(Duration.ofSeconds(2)));
        long mark = log.nextOffset();
        long forcedBefore = source.state().forcedRelists();

        api.mute("services");                    // open, silent, never closed: half-open
        long mutedAt = System.nanoTime();
        Kube.deleteService(api.client(), "b");

        await().atMost(40, TimeUnit.SECONDS).until(() -> LogView.all(log, mark).contains("relisted SERVICE [ns1/a]"));
        Duration took = Duration.ofNanos(System.nanoTime() - mutedAt);
        // The other kinds' watches outlive their timeouts too (the mock never ends a watch): their
        // relists may come first, so only the Services' records are looked at.
        assertThat(LogView.of(log, ResourceKind.SERVICE, mark)).startsWith("deleted? ns1/b", "relisted SERVICE [ns1/a]");
        assertThat(source.state().forcedRelists()).isGreaterThan(forcedBefore);
        assertThat(took).as("at most 4 s + 5 s slack + a tick, with room for a busy machine").isLessThan(Duration.ofSeconds(25));
        assertThat(api.lastWatchQuery("services")).containsPattern("timeoutSeconds=[234](&|$)");
        System.out.println("half-open watch relisted after ms=" + took.toMillis() + " state=" + source.state());
    }
}
