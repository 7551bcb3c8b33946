package io.kproxy.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.listen.Limits;
import io.kproxy.testkit.Descriptors;
import io.kproxy.testkit.KernelTests;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import jdk.net.UnixDomainPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Issue 18 on the admin socket: half-sent requests are bounded and closed at their deadline (200
 * of them were held for 90 s), the peer's credentials decide who is served (root, or the
 * configured group as the effective group), the socket file is never connectable with another
 * mode than its own, and a request cannot forge a log line.
 */
class AdminSocketTest {

    private static final Limits LIMITS = Limits.ADMIN.withMaxConnections(16).withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2),
            Duration.ofSeconds(2));
    /** A gid no account uses: the group of the socket in the tests that run clients as {@code nobody}. */
    private static final String GROUP = "4242";

    private final UserPrincipalLookupService users = FileSystems.getDefault().getUserPrincipalLookupService();
    private Path dir;
    private Engine engine;

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory(Path.of("/tmp"), "kp-admin-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // nobody may enter (the tests with setpriv)
        engine = Engine.start(Engine.Wiring.production(new MemoryEventLog(), BackendProvider.forMode("nftables").orElseThrow()
                .create(new MemoryKernelPort(), new MemoryKernelPort()), new EngineOptions(Duration.ZERO, Duration.ofSeconds(30),
                        Duration.ofHours(1), Duration.ofSeconds(1), 10_000, EngineOptions.SOURCE),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
    }

    @AfterEach
    void tearDown() throws IOException {
        engine.close(Duration.ofSeconds(5));
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private AdminServer start(Path socket, AdminAccess access) throws IOException {
        return AdminServer.start(socket, access, engine.control(), Duration.ofSeconds(5), LIMITS);
    }

    @Test
    void halfSentRequestsAreBoundedAnsweredAroundAndClosedAtTheirDeadline() throws Exception {
        Path socket = dir.resolve("admin.sock");
        try (AdminServer _ = start(socket, AdminAccess.of(""))) {
            long before = Descriptors.open();
            List<SocketChannel> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 200; i++) {
                    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
                    c.connect(UnixDomainSocketAddress.of(socket));
                    c.write(ByteBuffer.wrap("{\"op\":\"sta".getBytes(StandardCharsets.US_ASCII)));
                    flood.add(c);
                }
                long floodEnd = System.nanoTime();
                assertThat(Descriptors.serverShare(before, flood.size(), LIMITS.maxConnections() + 8))
                        .as("descriptors the server holds for 200 stalled requests").isLessThanOrEqualTo(LIMITS.maxConnections() + 8);
                long t0 = System.nanoTime();
                AdminResponse status = new AdminClient(socket).send(new AdminRequest.Status());
                assertThat(status.outcome()).isEqualTo("done");
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("a fresh status during the flood").isLessThan(Duration.ofMillis(1_000));
                for (SocketChannel c : flood) {
                    int r;
                    try {
                        r = Channels.newInputStream(c).read();
                    } catch (IOException e) {
                        r = -1;
                    }
                    assertThat(r).as("a stalled request is closed without an answer").isEqualTo(-1);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - floodEnd)).isLessThan(Duration.ofMillis(3_500));
            } finally {
                for (SocketChannel c : flood) {
                    c.close();
                }
            }
        }
    }

    @Test
    void theDecisionFollowsThePeersUidAndEffectiveGid() throws IOException {
        var root = users.lookupPrincipalByName("0");
        var nobody = users.lookupPrincipalByName("65534");
        var rootGroup = users.lookupPrincipalByGroupName("0");
        var admins = users.lookupPrincipalByGroupName(GROUP);
        var nogroup = users.lookupPrincipalByGroupName("65534");
        AdminAccess rootOnly = AdminAccess.of("");
        AdminAccess withGroup = AdminAccess.of(GROUP);
        assertThat(rootOnly.decide(new UnixDomainPrincipal(root, nogroup))).isInstanceOf(AdminAccess.Admitted.class);
        assertThat(rootOnly.decide(new UnixDomainPrincipal(nobody, rootGroup))).as("gid 0 alone is not root").isInstanceOf(
                AdminAccess.Refused.class);
        assertThat(rootOnly.decide(new UnixDomainPrincipal(nobody, admins))).isInstanceOf(AdminAccess.Refused.class);
        assertThat(withGroup.decide(new UnixDomainPrincipal(root, nogroup))).isInstanceOf(AdminAccess.Admitted.class);
        assertThat(withGroup.decide(new UnixDomainPrincipal(nobody, admins))).isInstanceOf(AdminAccess.Admitted.class);
        assertThat(withGroup.decide(new UnixDomainPrincipal(nobody, nogroup))).isEqualTo(new AdminAccess.Refused(
                "only root or processes whose effective group is 4242 may use the admin socket (try: sg 4242 -c \"kproxy ...\")"));
        assertThatThrownBy(() -> AdminAccess.of("no-such-group-kp18")).isInstanceOf(IOException.class).hasMessage(
                "kproxy.adminGroup \"no-such-group-kp18\" is not a group of this system");
    }

    @Test
    void aRefusedPeerGetsAClearAnswerAndOneEscapedLogLine() throws Exception {
        Path socket = dir.resolve("admin.sock");
        ListAppender<ILoggingEvent> lines = capture(AdminServer.class);
        // The real SO_PEERCRED path with root refused: an access whose "root" is uid 65534.
        try (AdminServer _ = start(socket, new AdminAccess.RootOnly(users.lookupPrincipalByName("65534")))) {
            assertThatThrownBy(() -> new AdminClient(socket).send(new AdminRequest.Status())).isInstanceOfSatisfying(AdminClient.Unreachable.class,
                    e -> {
                        assertThat(e.kind()).isEqualTo(AdminClient.Unreachable.Kind.PERMISSION_DENIED);
                        assertThat(e.getMessage()).isEqualTo("permission denied on " + socket
                                + ": only root may use the admin socket (no kproxy.adminGroup is configured)");
                    });
        } finally {
            release(AdminServer.class, lines);
        }
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).filteredOn(l -> l.startsWith("decision=refuse-admin-peer"))
                .containsExactly("decision=refuse-admin-peer user=\"root\" group=\"root\" suppressedBefore=0 reason=\"only root may use the "
                        + "admin socket (no kproxy.adminGroup is configured)\"");
    }

    @Test
    void rootIsAdmittedThroughTheRealPeerCredentials() throws Exception {
        Path socket = dir.resolve("admin.sock");
        try (AdminServer _ = start(socket, AdminAccess.of(GROUP))) {
            assertThat(new AdminClient(socket).send(new AdminRequest.Status()).outcome()).isEqualTo("done");
        }
    }

    @Test
    void anotherUserIsServedOnlyWithTheAdminGroupAsItsEffectiveGroup() throws Exception {
        KernelTests.require("setpriv", "python3");
        Path socket = dir.resolve("admin.sock");
        try (AdminServer _ = start(socket, AdminAccess.of(GROUP))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-rw----");
            assertThat(Files.getAttribute(socket, "unix:gid")).isEqualTo(4242);
            assertThat(asNobody(socket, "--regid=" + GROUP, "--clear-groups")).startsWith("{\"outcome\":\"done\"");
            // In the group only as a supplementary group: the kernel lets it connect (0660), SO_PEERCRED does not.
            assertThat(asNobody(socket, "--regid=65534", "--groups=" + GROUP)).isEqualTo("{\"outcome\":\"forbidden\",\"message\":\"only root or "
                    + "processes whose effective group is 4242 may use the admin socket (try: sg 4242 -c \\\"kproxy ...\\\")\"}");
            assertThat(asNobody(socket, "--regid=65534", "--clear-groups")).isEqualTo("EACCES");
        }
    }

    /** A status request from uid 65534 with the given group options of setpriv: the answer line, or EACCES. */
    private static String asNobody(Path socket, String... groups) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534"));
        cmd.addAll(List.of(groups));
        cmd.addAll(List.of("/usr/bin/python3", "-c", """
                import socket, sys
                s = socket.socket(socket.AF_UNIX)
                try:
                    s.connect(sys.argv[1])
                except PermissionError:
                    print("EACCES"); sys.exit(0)
                s.sendall(b'{"op":"status"}\\n'); s.shutdown(socket.SHUT_WR)
                print(s.makefile().read().strip())
                """, socket.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void theSocketIsNeverVisibleWithAnotherModeAndNoPrivateDirectoryIsLeft() throws Exception {
        Path socket = dir.resolve("admin.sock");
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = Thread.ofPlatform().start(() -> {
            while (watching.get()) {
                try {
                    int mode = (Integer) Files.getAttribute(socket, "unix:mode", LinkOption.NOFOLLOW_LINKS);
                    seen.add(Integer.toOctalString(mode));
                } catch (IOException | RuntimeException e) {
                    // not there right now
                }
            }
        });
        try {
            for (int i = 0; i < 30; i++) {
                try (AdminServer _ = start(socket, AdminAccess.of(""))) {
                    assertThat(Integer.toOctalString((Integer) Files.getAttribute(socket, "unix:mode", LinkOption.NOFOLLOW_LINKS)))
                            .isEqualTo("140600");
                }
            }
        } finally {
            watching.set(false);
            watcher.join();
        }
        assertThat(seen).as("modes the socket path was ever seen with").containsExactly("140600");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.toList()).as("the private bind directories are gone").isEmpty();
        }
    }

    @Test
    void theOpFieldCannotForgeALogLineAndAReasonCannotCarryControlCharacters() throws Exception {
        Path socket = dir.resolve("admin.sock");
        ListAppender<ILoggingEvent> lines = capture(AdminServer.class);
        try (AdminServer _ = start(socket, AdminAccess.of(""))) {
            String forged = raw(socket, "{\"op\":\"x\\n2026-11-22T03:12:07.000Z level=ERROR decision=forged\"}\n");
            assertThat(forged).startsWith("{\"outcome\":\"bad-request\"");
            String reason = raw(socket, "{\"op\":\"unpin\",\"reason\":\"ok\\u001b[2J\"}\n");
            assertThat(reason).contains("\\\"reason\\\" must not contain control characters");
        } finally {
            release(AdminServer.class, lines);
        }
        List<String> refusals = lines.list.stream().map(ILoggingEvent::getFormattedMessage).filter(l -> l.startsWith(
                "decision=refuse-admin-request")).toList();
        assertThat(refusals).hasSize(2).noneMatch(l -> l.contains("\n") || l.contains("\u001b"));
        assertThat(refusals.get(0)).isEqualTo("decision=refuse-admin-request reason=\"unknown op \\\"x\\n2026-11-22T03:12:07.000Z "
                + "level=ERROR decision=forged\\\" (pin, unpin or status)\"");
    }

    @Test
    void fuzzedRequestLinesAreAnsweredAndNeverPutAControlCharacterIntoALogLine() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        java.util.Random r = new java.util.Random(seed);
        String[] parts = {"{", "}", "\"op\"", ":", "\"pin\"", "\"unpin\"", "\"status\"", ",", "\"reason\"", "\"toOffset\"", "1",
            "\"toTime\"", "\"2026-11-22T03:12:00Z\"", "\\n", "\\u001b[31m", "\\u2028", "\u0000", "\t", "\"", "x", "\u00e9"};
        Path socket = dir.resolve("admin.sock");
        ListAppender<ILoggingEvent> lines = capture(AdminServer.class);
        try (AdminServer _ = start(socket, AdminAccess.of(""))) {
            for (int i = 0; i < 150; i++) {
                StringBuilder line = new StringBuilder();
                for (int k = r.nextInt(12); k >= 0; k--) {
                    line.append(parts[r.nextInt(parts.length)]);
                }
                String answer = raw(socket, line.toString().replace("\n", "") + "\n");
                assertThat(AdminResponse.decode(answer)).as("seed %d case %d: %s", seed, i, line).isPresent();
            }
        } finally {
            release(AdminServer.class, lines);
        }
        assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).as("seed %d", seed).allSatisfy(l -> assertThat(l.chars()
                .noneMatch(c -> Character.isISOControl(c) || c == '\u2028' || c == '\u2029')).as(l).isTrue());
    }

    private static String raw(Path socket, String line) throws IOException {
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            c.connect(UnixDomainSocketAddress.of(socket));
            c.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
            c.shutdownOutput();
            return new String(Channels.newInputStream(c).readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }

    private static ListAppender<ILoggingEvent> capture(Class<?> c) {
        ListAppender<ILoggingEvent> a = new ListAppender<>();
        a.start();
        ((Logger) LoggerFactory.getLogger(c)).addAppender(a);
        return a;
    }

    private static void release(Class<?> c, ListAppender<ILoggingEvent> a) {
        ((Logger) LoggerFactory.getLogger(c)).detachAppender(a);
    }
}
