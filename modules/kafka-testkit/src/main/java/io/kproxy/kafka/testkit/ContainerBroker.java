package io.kproxy.kafka.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * {@link KafkaBroker}'s branch with a Docker engine: Testcontainers' Kafka module (the
 * {@code apache/kafka} image of the version the build tests against), with the same settings as
 * {@code BrokerMain}'s (topics never created automatically, one replica for internal topics). The
 * host port is fixed when the container is created, so that a {@link #kill()} (Docker's SIGKILL)
 * and {@link #restart()} of the same container keep the address clients know and the data.
 * Needs org.testcontainers:testcontainers-kafka on the class path (never the module path: it
 * splits packages with testcontainers). Not thread-safe.
 */
final class ContainerBroker implements RunningBroker {

    /** The image of the broker version the build's kafka-clients and KRaft broker are (root pom). */
    static final String IMAGE = "apache/kafka:4.4.0";
    private static final int KAFKA_PORT = 9092;

    private final KafkaContainer container;
    private final int port;
    private final Duration startTimeout;
    private final Path dir;
    private boolean running;

    private ContainerBroker(KafkaContainer container, int port, Duration startTimeout, Path dir) {
        this.container = container;
        this.port = port;
        this.startTimeout = startTimeout;
        this.dir = dir;
    }

    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static ContainerBroker start(Map<String, String> settings, Duration startTimeout) {
        int port = KraftProcessBroker.freePort();
        @SuppressWarnings("resource") // closed by close()
        KafkaContainer c = new KafkaContainer(IMAGE).withStartupTimeout(startTimeout);
        c.setPortBindings(List.of(port + ":" + KAFKA_PORT));
        Map<String, String> all = new java.util.TreeMap<>(Map.of("auto.create.topics.enable", "false", "num.partitions", "1",
                "offsets.topic.replication.factor", "1", "transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1", "group.initial.rebalance.delay.ms", "0", "log.retention.check.interval.ms", "1000",
                "log.cleaner.backoff.ms", "500"));
        all.putAll(settings);
        // The apache/kafka image turns KAFKA_<NAME> into the server property <name> (dots as underscores).
        all.forEach((k, v) -> c.withEnv("KAFKA_" + k.toUpperCase(Locale.ROOT).replace('.', '_'), v));
        Path dir;
        try {
            dir = Files.createTempDirectory("kproxy-kafka-container-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ContainerBroker b = new ContainerBroker(c, port, startTimeout, dir);
        try {
            c.start();
            b.running = true;
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw new IllegalStateException("the Kafka container did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    @Override
    public boolean running() {
        return running;
    }

    @Override
    public void kill() {
        if (running) {
            DockerClientFactory.instance().client().killContainerCmd(container.getContainerId()).exec();
            running = false;
        }
    }

    @Override
    public void restart() {
        if (running) {
            throw new IllegalStateException("the broker is running");
        }
        DockerClientFactory.instance().client().startContainerCmd(container.getContainerId()).exec();
        running = true;
        awaitAnswer();
    }

    @Override
    public void stop() {
        if (running) {
            DockerClientFactory.instance().client().stopContainerCmd(container.getContainerId()).withTimeout(30).exec();
            running = false;
        }
    }

    @Override
    public void close() {
        container.stop();
        running = false;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // already gone
        }
    }

    /** The container's output so far, copied into a file of this broker's temporary directory. */
    @Override
    public Path logFile() {
        Path f = dir.resolve("broker.log");
        try {
            Files.writeString(f, container.getContainerId() == null ? "" : container.getLogs());
        } catch (IOException | RuntimeException e) {
            // the log is for a failure message only
        }
        return f;
    }

    /** Bounded: the restarted broker answers an admin request within the start timeout. */
    private void awaitAnswer() {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.describeCluster().nodes().get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the restarted Kafka container did not answer within " + startTimeout, e);
        }
    }
}
