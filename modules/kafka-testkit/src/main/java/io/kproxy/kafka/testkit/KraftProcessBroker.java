package io.kproxy.kafka.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * {@link KafkaBroker}'s branch without a Docker engine: Apache Kafka's own KRaft broker (broker
 * and controller in one node), started from its Maven artifacts for a test: on loopback only, with its data in a temporary directory that
 * {@link #close()} removes. It runs in a child JVM on the class path this fixture was built with
 * ({@code broker.classpath}, written by the build), for two reasons: the broker's jars are not
 * JPMS modules and share packages with {@code kafka.clients}, which the code under test reads from
 * the module path; and a process can be killed ({@link #kill()}) and started again on the same
 * ports and data ({@link #restart()}), which is what a lost broker is.
 *
 * <p>Not thread-safe: one test drives it. {@link #start} and {@link #restart} block until the
 * broker answers an admin request, at most the given timeout; the child also stops by itself
 * when this JVM ends (its stdin closes). No Docker engine is needed.
 */
final class KraftProcessBroker implements RunningBroker {

    private final Path dir;
    private final String clusterId;
    private final int port;
    private final int controllerPort;
    private final Map<String, String> settings;
    private final Duration startTimeout;
    private Process process;

    private KraftProcessBroker(Path dir, int port, int controllerPort, Map<String, String> settings, Duration startTimeout) {
        this.dir = dir;
        this.clusterId = kafkaClusterId();
        this.port = port;
        this.controllerPort = controllerPort;
        this.settings = Map.copyOf(settings);
        this.startTimeout = startTimeout;
    }

    /**
     * A broker with extra broker settings (e.g. {@code log.retention.ms}), started within
     * {@code startTimeout}; on failure the child is killed, its directory removed, and the
     * exception carries the broker's last log lines.
     */
    static KraftProcessBroker start(Map<String, String> settings, Duration startTimeout) {
        Path dir;
        try {
            dir = Files.createTempDirectory("kproxy-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        KraftProcessBroker b = new KraftProcessBroker(dir, freePort(), freePort(), settings, startTimeout);
        try {
            b.launch();
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    /** {@code 127.0.0.1:<port>}, what clients are given as {@code bootstrap.servers}. */
    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Whether the broker process is running. */
    @Override
    public boolean running() {
        return process != null && process.isAlive();
    }

    /** SIGKILL: the broker is lost at once, without a clean shutdown; its data stays for {@link #restart()}. */
    @Override
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitFor(process, Duration.ofSeconds(30));
            process = null;
        }
    }

    /** Starts the broker again on the same ports and data (after {@link #kill()} or {@link #stop()}). */
    @Override
    public void restart() {
        if (running()) {
            throw new IllegalStateException("the broker is running");
        }
        launch();
    }

    /** A clean shutdown (stdin closed: the child shuts the broker down); killed if it takes over 30 s. */
    @Override
    public void stop() {
        if (process == null) {
            return;
        }
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // the child is gone already
        }
        if (!waitFor(process, Duration.ofSeconds(30))) {
            process.destroyForcibly();
            waitFor(process, Duration.ofSeconds(30));
        }
        process = null;
    }

    /** Stops the broker and removes its directory. Idempotent. */
    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // already gone
        }
    }

    /** The broker's log file (its stdout and stderr), for a failing test's message. */
    @Override
    public Path logFile() {
        return dir.resolve("broker.log");
    }

    private void launch() {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED",
                "-Dlogback.configurationFile=" + logbackConfig(), "-cp", BrokerClassPath.get(),
                BrokerMain.class.getName(), dir.resolve("data").toString(), clusterId, Integer.toString(port),
                Integer.toString(controllerPort)));
        settings.forEach((k, v) -> cmd.add(k + "=" + v));
        try {
            process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(logFile().toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the broker JVM", e);
        }
        CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> readReady(process.getInputStream()));
        try {
            if (!ready.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw failed("the broker exited before it was ready", null);
            }
        } catch (TimeoutException e) {
            throw failed("the broker was not ready within " + startTimeout, e);
        } catch (ExecutionException e) {
            throw failed("cannot read the broker's output", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed("interrupted while the broker started", e);
        }
    }

    private IllegalStateException failed(String why, Exception cause) {
        kill();
        String tail;
        try {
            List<String> lines = Files.readAllLines(logFile());
            tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            tail = "(no log)";
        }
        return new IllegalStateException(why + "; last lines of " + logFile() + ":\n" + tail, cause);
    }

    /** True once the child printed READY; false if its stdout ended first. Later output is drained. */
    private static boolean readReady(InputStream stdout) {
        BufferedReader r = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8));
        try {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.equals("READY")) {
                    Thread.ofVirtual().start(() -> drain(r));
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private static void drain(BufferedReader r) {
        try {
            while (r.readLine() != null) {
                // nothing: the broker logs to its file
            }
        } catch (IOException e) {
            // the child ended
        }
    }

    private Path logbackConfig() {
        Path f = dir.resolve("logback.xml");
        if (!Files.exists(f)) {
            String xml = """
                    <configuration>
                      <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                        <file>%s</file>
                        <encoder><pattern>%%d{HH:mm:ss.SSS} %%-5level %%logger{36} - %%msg%%n</pattern></encoder>
                      </appender>
                      <root level="WARN"><appender-ref ref="FILE"/></root>
                    </configuration>
                    """.formatted(logFile());
            try {
                Files.writeString(f, xml);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return f;
    }

    private static boolean waitFor(Process p, Duration d) {
        try {
            return p.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Kafka cluster id: 16 random bytes, URL-safe base64 without padding (Kafka's {@code Uuid.toString}). */
    private static String kafkaClusterId() {
        UUID u = UUID.randomUUID();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }
}
