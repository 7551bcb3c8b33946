package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.source.kube.internal.Reachability;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An API server address nothing answers on: the source says so at WARN, within
 * {@link Reachability#NO_ANSWER_WARNING} (plus a monitor tick), naming the address and the
 * reason, in one line per reason, without a stack trace. Traffic only to loopback.
 */
class ReachabilityIT {

    private final MemoryEventLog log = new MemoryEventLog();
    private KubeSource source;
    private LogCapture logs;

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        if (logs != null) {
            logs.close();
        }
        log.close();
    }

    private long start(String url) {
        logs = new LogCapture();
        source = KubeSource.create(KubeSourceOptions.defaults(new io.kproxy.model.NodeName(TestSources.NODE)).withMasterUrl(url)
                .withWatchReconnectInterval(Duration.ofMillis(200)), log, KnownObjects.empty());
        long started = System.nanoTime();
        source.start();
        return started;
    }

    @Test
    void anAddressThatAcceptsAndNeverAnswersIsReportedWithinTheBound() throws Exception {
        // The kernel completes the TCP handshake into the backlog; nobody ever reads or answers:
        // what a client sees of a blackholed or not yet routed Service address, at worst.
        try (ServerSocket hole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String url = "http://127.0.0.1:" + hole.getLocalPort();
            long started = start(url);
            await().atMost(15, TimeUnit.SECONDS).until(() -> !logs.warnings("decision=api-server-unreachable").isEmpty());
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            List<String> w = logs.warnings("decision=api-server-unreachable");
            assertThat(w.getFirst()).contains("address=" + url, "reason=no-answer", "auth=\"anonymous\"");
            assertThat(took).as("warned within the bound plus one monitor tick and scheduling slack")
                    .isGreaterThanOrEqualTo(Reachability.NO_ANSWER_WARNING)
                    .isLessThan(Reachability.NO_ANSWER_WARNING.plusSeconds(3));
            System.out.println("blackhole warning after ms=" + took.toMillis());
            assertNoStackTraces();
        }
    }

    @Test
    void aClosedPortIsReportedAsRefusedOnce() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        long started = start(url);
        await().atMost(10, TimeUnit.SECONDS).until(() -> !logs.warnings("reason=connect-refused").isEmpty());
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).isLessThan(Reachability.NO_ANSWER_WARNING);
        Thread.sleep(3_000);   // fabric8 and the informers retry meanwhile, many times
        assertThat(logs.warnings("reason=connect-refused")).as("one line for the episode").hasSize(1)
                .allMatch(w -> w.contains("address=" + url));
        assertThat(logs.warnings("")).as("nothing else at WARN").hasSize(1);
        assertNoStackTraces();
    }

    @Test
    void closingTheSourceWhileItsListsHangLogsNoError() throws Exception {
        // Lists in flight when the source closes fail once their connection goes (here the
        // blackhole closing); fabric8 logged each at ERROR ("will stop") because the exception
        // handler refused to retry a closed source's list, and under load those lines landed in
        // the next test's capture. Closing is not a failure.
        for (int round = 0; round < 3; round++) {
            try (ServerSocket hole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
                start("http://127.0.0.1:" + hole.getLocalPort());
                Thread.sleep(300L + 100L * round);   // the first lists are sent and hang
                source.close();
            }
            Thread.sleep(500);                       // their failures arrive after the close
            assertThat(logs.events()).as("round %d", round)
                    .filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)).isEmpty();
            logs.close();
            logs = null;
            source = null;
        }
    }

    private void assertNoStackTraces() {
        assertThat(logs.events()).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                .allMatch(e -> e.getThrowableProxy() == null, "no stack trace at WARN");
    }
}
