package io.kproxy.source.kube;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.kproxy.journal.MemoryEventLog;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Routine failures log one line per event, as client-go does: an API server refusing the
 * credentials (401) for a few seconds, and one that is down (connection refused), each while
 * fabric8 and the informers retry many times. Counts the WARN/ERROR lines and the stack trace
 * lines of every logger at the levels the application configures (libraries at WARN,
 * fabric8's Reflector at ERROR; see logback-test.xml).
 */
class LogVolumeIT {

    private static final Duration EPISODE = Duration.ofSeconds(6);

    record Volume(int warnings, int stackLines) {
    }

    private static Volume run(String url) throws Exception {
        try (MemoryEventLog log = new MemoryEventLog(); LogCapture logs = new LogCapture()) {
            KubeSource source = KubeSource.create(KubeSourceOptions.defaults(new io.kproxy.model.NodeName(TestSources.NODE)).withMasterUrl(url)
                    .withWatchReconnectInterval(Duration.ofMillis(200)), log, KnownObjects.empty());
            source.start();
            Thread.sleep(EPISODE.toMillis());
            source.close();
            List<ILoggingEvent> warn = logs.events().stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
            int stack = warn.stream().mapToInt(e -> e.getThrowableProxy() == null ? 0
                    : (int) LogCapture.render(e).lines().count() - 1).sum();
            warn.forEach(e -> System.out.println("  " + e.getLevel() + " " + e.getFormattedMessage()));
            return new Volume(warn.size(), stack);
        }
    }

    @Test
    void anUnauthorizedEpisodeLogsOneLinePerKind() throws Exception {
        try (ScriptedApiServer api = ScriptedApiServer.start()) {
            api.requireToken("some-token-the-source-does-not-have");
            Volume v = run(api.url());
            System.out.println("401 for " + EPISODE.toSeconds() + " s: warnings=" + v.warnings() + " stack_lines=" + v.stackLines());
            // one per kind: Services, EndpointSlices, the Node and ServiceCIDRs
            assertThat(v).isEqualTo(new Volume(4, 0));
        }
    }

    @Test
    void anApiServerThatIsDownLogsOneLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Volume v = run("http://127.0.0.1:" + port);
        System.out.println("refused for " + EPISODE.toSeconds() + " s: warnings=" + v.warnings() + " stack_lines=" + v.stackLines());
        assertThat(v).isEqualTo(new Volume(1, 0));
    }
}
