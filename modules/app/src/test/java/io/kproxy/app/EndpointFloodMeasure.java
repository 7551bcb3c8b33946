package io.kproxy.app;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kproxy.admin.AdminServer;
import io.kproxy.backend.MemoryKernelPort;
import io.kproxy.backend.spi.BackendProvider;
import io.kproxy.config.ProxyConfig;
import io.kproxy.config.loader.ConfigLoader;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineOptions;
import io.kproxy.healthcheck.StatusServers;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.testkit.Descriptors;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The closing note's numbers for issue 18, defect 3 (not part of the suite: the name matches no
 * surefire include; run it by name). It reproduces the reported incident at a bounded scale with
 * the production limits: this JVM (the agent) gets a descriptor limit of 1,100 ({@code prlimit}
 * on itself), and a separate client process (python3, its own limit) opens {@code N} connections
 * (default 2,000; {@code -Dflood.n}) that send {@code GET /healthz HTTP/1.1\r\n} and stall, then
 * knocks on the admin socket while the flood lasts. It reports the descriptors the agent uses,
 * whether the agent can still open a socket (its API watch could not), whether a fresh
 * {@code /healthz} is answered and how fast, the admin socket's log lines and the CPU the agent
 * burns meanwhile, and how many stalled connections are still open 12 s after the flood. It uses only APIs
 * that the code before the fix has too, so the same file measures both.
 *
 * <pre>./mvnw -o verify -pl modules/app -am -Dsurefire.failIfNoSpecifiedTests=false -Dtest=EndpointFloodMeasure</pre>
 *
 * The report is in {@code modules/app/target/flood-measure.txt}.
 */
class EndpointFloodMeasure {

    private static final String CLIENT = """
            import os, socket, sys, time, urllib.request
            host, port, admin, n, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
            def out(*a):
                print(*a, flush=True)
            def agent_fds():
                return len(os.listdir("/proc/%d/fd" % pid))
            def agent_cpu_ms():
                f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
                return (int(f[11]) + int(f[12])) * 1000 // os.sysconf("SC_CLK_TCK")
            sys.stdin.readline()
            held = []
            for i in range(n):
                try:
                    s = socket.create_connection((host, port), timeout=5)
                    s.sendall(b"GET /healthz HTTP/1.1\\r\\n")
                    held.append(s)
                except OSError as e:
                    out("connect", i, "failed:", e); break
            time.sleep(0.5)
            out("opened", len(held), "; the agent then uses", agent_fds(), "descriptors")
            def fresh():
                t = time.monotonic()
                try:
                    r = urllib.request.urlopen("http://%s:%d/healthz" % (host, port), timeout=5)
                    return "HTTP %d in %d ms" % (r.status, (time.monotonic() - t) * 1000)
                except Exception as e:
                    return "failed after %d ms: %s" % ((time.monotonic() - t) * 1000, e)
            out("fresh", fresh())
            knocks = []
            for i in range(20):
                k = socket.socket(socket.AF_UNIX)
                try:
                    k.connect(admin); k.sendall(b'{"op":"status"}\\n'); knocks.append(k)
                except OSError as e:
                    out("admin connect failed:", e); break
            out("knocked", len(knocks), "times on the admin socket; the agent's CPU so far:", agent_cpu_ms(), "ms")
            sys.stdin.readline()
            out("fresh", fresh())
            out("cpu the agent's CPU so far:", agent_cpu_ms(), "ms")
            closed = 0
            for s in held:
                s.setblocking(False)
                try:
                    if s.recv(1) == b"": closed += 1
                except BlockingIOError:
                    pass
                except OSError:
                    closed += 1
            out("closed", closed, "of", len(held), "; the agent uses", agent_fds(), "descriptors")
            """;

    private final List<String> report = new ArrayList<>();

    private void say(String line) {
        report.add(line);
        System.out.println(line);
    }

    private static long fds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    @Test
    void measure() throws Exception {
        int n = Integer.getInteger("flood.n", 2_000);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ProxyConfig config = ConfigLoader.load("apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: nftables\n"
                + "healthzBindAddress: 127.0.0.1:" + Descriptors.freePort() + "\nmetricsBindAddress: 127.0.0.1:"
                + Descriptors.freePort() + "\n");
        MemoryKernelPort kernel = new MemoryKernelPort();
        Engine engine = Engine.start(Engine.Wiring.production(new MemoryEventLog(), BackendProvider.forMode("nftables").orElseThrow()
                .create(kernel, kernel), EngineOptions.of(config), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        Path dir = Files.createTempDirectory("kp-flood-");
        Process client = null;
        try (StatusServers servers = StatusServers.bind(config);
                AdminServer admin = AdminServer.start(dir.resolve("admin.sock"), engine.control(), Duration.ofSeconds(10))) {
            servers.start(engine, config);
            int port = servers.healthAddress().orElseThrow().getPort();
            client = new ProcessBuilder("python3", "-c", CLIENT, "127.0.0.1", Integer.toString(port), admin.path().toString(),
                    Integer.toString(n), Long.toString(ProcessHandle.current().pid())).redirectErrorStream(true).start();
            BufferedReader from = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            Writer to = new java.io.OutputStreamWriter(client.getOutputStream(), StandardCharsets.UTF_8);
            long pid = ProcessHandle.current().pid();
            if (new ProcessBuilder("prlimit", "--pid", Long.toString(pid), "--nofile=1100:1100").inheritIO().start().waitFor() != 0) {
                throw new AssertionError("prlimit failed");
            }
            long before = fds();
            say("agent: descriptor limit 1100, " + before + " in use before the flood; flood of " + n + " half-sent GET /healthz");
            root.addAppender(lines);
            long t0 = System.nanoTime();
            to.write("go\n");
            to.flush();
            expect(from, "opened");
            long floodEnd = System.nanoTime();
            say("(the flood took " + Duration.ofNanos(floodEnd - t0).toMillis() + " ms)");
            expect(from, "fresh");
            say("agent: can open a new socket (as its API watch must): " + canOpenSocket());
            int lines0 = lines.list.size();
            expect(from, "knocked");
            Thread.sleep(5_000);
            say("agent: log lines in the 5 s after the knocks: " + (lines.list.size() - lines0));
            Thread.sleep(Math.max(0, 12_000 - Duration.ofNanos(System.nanoTime() - floodEnd).toMillis()));
            say("agent: 12 s after the flood: can open a new socket: " + canOpenSocket());
            to.write("go\n");
            to.flush();
            expect(from, "fresh");
            expect(from, "cpu");
            expect(from, "closed");
            root.detachAppender(lines);
            say("agent: log lines in all: " + lines.list.size());
            lines.list.stream().map(ILoggingEvent::getFormattedMessage).distinct().limit(4).forEach(l -> say("  e.g. " + l));
        } finally {
            root.detachAppender(lines);
            if (client != null) {
                client.destroyForcibly().waitFor();
            }
            engine.close(Duration.ofSeconds(5));
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
            Files.write(Path.of("target", "flood-measure.txt"), report);
        }
    }

    /** Reports the client's lines up to the first that starts with {@code prefix}. */
    private void expect(BufferedReader from, String prefix) throws IOException {
        for (String line = from.readLine(); line != null; line = from.readLine()) {
            say("client: " + line);
            if (line.startsWith(prefix)) {
                return;
            }
        }
        throw new IOException("the client ended before \"" + prefix + "\"");
    }

    private static String canOpenSocket() {
        try (SocketChannel _ = SocketChannel.open()) {
            return "yes";
        } catch (IOException e) {
            return "no (" + e.getMessage() + ")";
        }
    }
}
