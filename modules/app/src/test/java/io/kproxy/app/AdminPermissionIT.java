package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.admin.AdminServer;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.testkit.KernelTests;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Only root reaches the admin socket: {@code ./kproxy status} and {@code rollback} run as
 * {@code nobody} (through {@code setpriv}, with the real launcher) against a root agent's socket
 * are refused by the kernel, and say so with exit 77, never a stack trace. Both ways in: the
 * socket's 0700 directory, and the 0600 socket itself in a directory anyone may enter.
 */
class AdminPermissionIT {

    private record Run(int exit, String out, String err) {
    }

    private static Run asNobody(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        cmd.add(AgentProcess.root().resolve("kproxy").toString());
        cmd.addAll(List.of(args));
        Process p = AgentProcess.builder(cmd).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out");
        }
        return new Run(p.exitValue(), out, err);
    }

    @Test
    void anotherUserIsRefusedWithExit77() throws Exception {
        KernelTests.require("setpriv");
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "kp-perm-");
        Engine engine = Engine.start(Engine.Wiring.production(new MemoryEventLog(), BackendProvider.forMode("nftables").orElseThrow()
                .create(new MemoryKernelPort(), new MemoryKernelPort()), new EngineOptions(Duration.ZERO, Duration.ofSeconds(30),
                        Duration.ofHours(1), Duration.ofSeconds(1), 10_000, EngineOptions.SOURCE),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        try {
            // The socket in a private 0700 directory (the default layout, /run/kproxy/admin.sock).
            Path privateSocket = dir.resolve("private").resolve("admin.sock");
            // A 0600 socket in a directory anyone may enter.
            Path open = Files.createDirectory(dir.resolve("open"));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path openSocket = open.resolve("admin.sock");
            try (AdminServer a = AdminServer.start(privateSocket, engine.control(), Duration.ofSeconds(5));
                    AdminServer b = AdminServer.start(openSocket, engine.control(), Duration.ofSeconds(5))) {
                for (Path socket : List.of(a.path(), b.path())) {
                    Run status = asNobody("status", "--admin-socket", socket.toString());
                    assertThat(status.exit()).as("%s: %s", socket, status.err()).isEqualTo(77);
                    assertThat(status.err()).isEqualTo("kproxy status: permission denied on " + socket
                            + ": only root (the agent's user) or its kproxy.adminGroup may use the admin socket; run this command as root\n");
                    Run rollback = asNobody("rollback", "--to", "-1m", "--admin-socket", socket.toString());
                    assertThat(rollback.exit()).isEqualTo(77);
                    assertThat(rollback.err()).doesNotContain("Exception");
                }
            }
        } finally {
            engine.close(Duration.ofSeconds(5));
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
