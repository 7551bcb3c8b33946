package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.kproxy.admin.AdminServer;
import io.kproxy.backend.Backend;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.ServiceFixture;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code kproxy rollback}, {@code resume} and {@code status} against a real engine (in memory,
 * nftables rendered into a fake kernel) behind a real admin socket: what they print, their exit
 * codes, and the endpoint's own refusals. Never a stack trace.
 */
class AdminCommandsTest {

    private Path dir;
    private Path socket;
    private MemoryEventLog log;
    private MemoryKernelPort kernel;
    private Engine engine;
    private AdminServer server;
    private long good;
    private Instant beforeJournal;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("kp-admin-");
        socket = dir.resolve("run").resolve("admin.sock");
        beforeJournal = Instant.now().minusSeconds(5);
        log = new MemoryEventLog();
        kernel = new MemoryKernelPort();
        Backend backend = BackendProvider.forMode("nftables").orElseThrow().create(kernel, kernel);
        engine = Engine.start(Engine.Wiring.production(log, backend, new EngineOptions(Duration.ZERO, Duration.ofSeconds(30),
                Duration.ofHours(1), Duration.ofSeconds(1), 10_000, EngineOptions.SOURCE), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        append(new ConfigRecorded(new NodeName("node-a"), Json.obj("mode", Json.of("nftables"))),
                ServiceFixture.service("demo", "web").clusterIP("172.30.0.10").port("http", 80, "TCP").observed(),
                EndpointSliceFixture.slice("demo", "web-1", "web").port("http", 8080, "TCP").endpoint("10.0.1.11").observed(),
                new SourceSynced(ResourceKind.SERVICE, "1"), new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1"));
        good = log.nextOffset() - 1;
        await().atMost(Duration.ofSeconds(10)).until(() -> kernel.applied().size() == 1);
        append(EndpointSliceFixture.slice("demo", "web-1", "web").port("http", 8080, "TCP").resourceVersion("2").observed());
        await().atMost(Duration.ofSeconds(10)).until(() -> kernel.applied().size() == 2);
        server = AdminServer.start(socket, engine.control(), Duration.ofSeconds(10));
    }

    private void append(io.kproxy.events.ClusterEvent... events) {
        for (io.kproxy.events.ClusterEvent e : events) {
            log.append("test", e).join();
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        if (server != null) {
            server.close();
        }
        engine.close(Duration.ofSeconds(5));
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    record Run(int exit, String out, String err) {
    }

    private Run kproxy(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Run kproxyAt(Path sock, String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--admin-socket";
        all[args.length + 1] = sock.toString();
        return kproxy(all);
    }

    @Test
    void rollbackStatusResumeEndToEnd() throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent()))).isEqualTo("rwx------");
        Run status = kproxyAt(socket, "status");
        assertThat(status.exit()).isZero();
        assertThat(status.out()).startsWith("dataplane: live\n").contains("last sync: generation 2 partial applied");

        Run rollback = kproxyAt(socket, "rollback", "--to-offset", Long.toString(good), "--reason", "web lost its endpoints");
        assertThat(rollback.exit()).as(rollback.err()).isZero();
        assertThat(rollback.out()).contains("dataplane pinned to the state at offset " + good).contains("programmed by sync generation 3 (full");
        assertThat(kernel.applied().getLast()).contains("10.0.1.11");
        status = kproxyAt(socket, "status");
        assertThat(status.out()).startsWith("dataplane: PINNED to offset " + good + " (state at ").contains(": web lost its endpoints\n")
                .contains("undo with: kproxy resume");
        assertThat(kproxyAt(socket, "status", "--json").out()).contains("\"pinned\":true").contains("\"toOffset\":" + good);

        Run again = kproxyAt(socket, "rollback", "--to", Instant.now().toString());
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).contains("re-pinned (was pinned to offset " + good + ")");

        Run resume = kproxyAt(socket, "resume", "--reason", "fixed");
        assertThat(resume.exit()).as(resume.err()).isZero();
        assertThat(resume.out()).contains("dataplane resumed live state");
        assertThat(kproxyAt(socket, "status").out()).startsWith("dataplane: live\n");
        assertThat(log.read(0, Integer.MAX_VALUE).stream().map(Envelope::event)
                .filter(e -> e instanceof DataplanePinned || e instanceof DataplaneUnpinned).toList()).hasSize(3);
    }

    @Test
    void badInputIsRefusedWithAClearMessageAndExit2() {
        Run before = kproxyAt(socket, "rollback", "--to", beforeJournal.toString());
        assertThat(before.exit()).isEqualTo(2);
        assertThat(before.err()).startsWith("kproxy rollback: before-journal: time " + beforeJournal + " is before the journal's first record");
        Run future = kproxyAt(socket, "rollback", "--to", Instant.now().plusSeconds(3600).toString());
        assertThat(future.exit()).isEqualTo(2);
        assertThat(future.err()).contains("in-future").contains("is in the future");
        Run garbage = kproxyAt(socket, "rollback", "--to", "yesterday");
        assertThat(garbage.exit()).isEqualTo(2);
        assertThat(garbage.err()).isEqualTo("kproxy rollback: --to: cannot read time \"yesterday\": use RFC 3339 with a zone "
                + "(2026-11-22T03:12:07Z, 2026-11-22T05:12:07+02:00), now, or -5m / -2h30m / -1d\n");
        Run offset = kproxyAt(socket, "rollback", "--to-offset", "99999");
        assertThat(offset.exit()).isEqualTo(2);
        assertThat(offset.err()).contains("bad-offset: offset 99999 is not in the journal");
        Run notSynced = kproxyAt(socket, "rollback", "--to-offset", "0");
        assertThat(notSynced.exit()).isEqualTo(2);
        assertThat(notSynced.err()).contains("not-synced");
        Run resume = kproxyAt(socket, "resume");
        assertThat(resume.exit()).isEqualTo(2);
        assertThat(resume.err()).isEqualTo("kproxy resume: not-pinned: the dataplane is not pinned: it already programs the live state\n");
        Run both = kproxyAt(socket, "rollback", "--to", "-1m", "--to-offset", "3");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("mutually exclusive");
        Run neither = kproxyAt(socket, "rollback");
        assertThat(neither.exit()).isEqualTo(2);
        for (Run r : new Run[] {before, future, garbage, offset, notSynced, resume, both, neither}) {
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        }
        assertThat(log.read(0, Integer.MAX_VALUE).stream().map(Envelope::event).filter(e -> e instanceof DataplanePinned)).isEmpty();
    }

    @Test
    void noAgentListeningExits69() throws IOException {
        Run missing = kproxyAt(dir.resolve("nothing.sock"), "status");
        assertThat(missing.exit()).isEqualTo(69);
        assertThat(missing.err()).startsWith("kproxy status: no agent is listening on " + dir.resolve("nothing.sock"));
        // A socket file whose agent is gone (killed: nobody removed it).
        Path stale = dir.resolve("stale.sock");
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(stale));
        }
        Run refused = kproxyAt(stale, "rollback", "--to", "-1m");
        assertThat(refused.exit()).isEqualTo(69);
        assertThat(refused.err()).contains("connection refused");
        // A new agent replaces the stale file; a second agent on a served socket is refused.
        try (AdminServer replaced = AdminServer.start(stale, engine.control(), Duration.ofSeconds(1))) {
            assertThat(replaced.path()).isEqualTo(stale);
            assertThat(kproxyAt(stale, "status").exit()).isZero();
            assertThatThrownBy(() -> AdminServer.start(stale, engine.control(), Duration.ofSeconds(1))).isInstanceOf(IOException.class)
                    .hasMessageContaining("another agent is serving");
        }
        assertThat(stale).as("removed on close").doesNotExist();
        Path notASocket = Files.writeString(dir.resolve("file.sock"), "x");
        assertThatThrownBy(() -> AdminServer.start(notASocket, engine.control(), Duration.ofSeconds(1))).isInstanceOf(IOException.class)
                .hasMessageContaining("is not a socket");
    }

    @Test
    void malformedRequestsGetABadRequestAnswer() throws IOException {
        for (String line : new String[] {"hello", "{\"op\":\"explode\"}", "{\"op\":\"pin\"}", "{\"op\":\"pin\",\"toTime\":\"noon\"}",
            "{\"op\":\"pin\",\"toOffset\":-1}", "{\"op\":\"status\",\"x\":1}", "[1,2]"}) {
            String answer = raw(line + "\n");
            assertThat(answer).as(line).startsWith("{\"outcome\":\"bad-request\",\"message\":");
        }
        assertThat(raw("{\"op\":\"status\"}\n")).startsWith("{\"outcome\":\"done\",\"message\":\"live\",\"status\":{\"pinned\":false,");
    }

    private String raw(String request) throws IOException {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            ch.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8)));
            ch.shutdownOutput();
            ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
            while (ch.read(buf) >= 0 && buf.hasRemaining()) {
                // read to the end
            }
            return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
        }
    }
}
