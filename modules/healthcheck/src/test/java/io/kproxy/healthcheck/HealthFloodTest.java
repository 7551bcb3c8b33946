package io.kproxy.healthcheck;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.listen.Limits;
import io.kproxy.testkit.Descriptors;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 18, defect 3, at a small bounded scale: 500 connections that send
 * {@code GET /healthz HTTP/1.1\r\n} and stall, against the real health server
 * ({@link StatusServers}, over an engine) with a cap of 40 and a request timeout of 2 s. The
 * server keeps answering a fresh {@code /healthz} promptly, holds at most the cap (plus a few) of
 * descriptors for the flood, closes every stalled connection by the timeout, and logs a summary,
 * not a line per connection. Before the fix the server held one descriptor per stalled
 * connection, forever (20,000 of them exhausted the agent).
 */
class HealthFloodTest {

    private static final int CAP = 40;
    private static final int FLOOD = 500;
    private static final Limits LIMITS = Limits.HTTP.withMaxConnections(CAP).withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2),
            Duration.ofSeconds(2));

    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger kproxyLogs = (Logger) LoggerFactory.getLogger("io.kproxy");
    private Engine engine;
    private StatusServers servers;

    @BeforeEach
    void setUp() throws Exception {
        ProxyConfig config = ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "healthzBindAddress: 127.0.0.1:" + Descriptors.freePort() + "\nmetricsBindAddress: 127.0.0.1:"
                + Descriptors.freePort() + "\n");
        MemoryKernelPort kernel = new MemoryKernelPort();
        engine = Engine.start(Engine.Wiring.production(new MemoryEventLog(), BackendProvider.forMode("nftables").orElseThrow().create(kernel,
                kernel), EngineOptions.of(config), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        servers = StatusServers.bind(config, LIMITS, LIMITS);
        servers.start(engine, config);
        lines.start();
        kproxyLogs.addAppender(lines);
    }

    @AfterEach
    void tearDown() {
        kproxyLogs.detachAppender(lines);
        servers.close();
        engine.close(Duration.ofSeconds(5));
    }

    @Test
    void halfSentRequestsAreBoundedAnsweredAroundAndClosedAtTheirDeadline() throws Exception {
        InetSocketAddress at = servers.healthAddress().orElseThrow();
        long before = Descriptors.open();
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < FLOOD; i++) {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), at.getPort());
                s.getOutputStream().write("GET /healthz HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                flood.add(s);
            }
            long floodEnd = System.nanoTime();
            // The test's own FLOOD client sockets are in this process too; the rest is the server's.
            long serverShare = Descriptors.serverShare(before, FLOOD, CAP + 8);
            assertThat(serverShare).as("descriptors the server holds for %d stalled connections", FLOOD).isLessThanOrEqualTo(CAP + 8);

            long t0 = System.nanoTime();
            try (Socket fresh = new Socket(InetAddress.getLoopbackAddress(), at.getPort())) {
                fresh.setSoTimeout(2_000);
                fresh.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: node\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = new String(fresh.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(answer).startsWith("HTTP/1.1 200 OK\r\n").contains("\"nodeEligible\": true");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("a fresh /healthz during the flood").isLessThan(Duration.ofMillis(1_000));

            for (Socket s : flood) {
                s.setSoTimeout(3_000);
                int r;
                try {
                    r = s.getInputStream().read();
                } catch (IOException e) {
                    r = -1; // reset
                }
                assertThat(r).as("a stalled connection is closed, never answered").isEqualTo(-1);
            }
            assertThat(Duration.ofNanos(System.nanoTime() - floodEnd)).as("every stalled connection closed by its deadline")
                    .isLessThan(Duration.ofMillis(3_500));
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
        assertThat(Descriptors.open() - before).isLessThanOrEqualTo(8);
        assertThat(lines.list).as("log lines for %d shed connections: %s", FLOOD, lines.list).hasSizeLessThanOrEqualTo(2);
    }
}
