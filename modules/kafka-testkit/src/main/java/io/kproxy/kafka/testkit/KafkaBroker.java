package io.kproxy.kafka.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * A real Kafka broker for a test, never a mock: Testcontainers' Kafka module when a Docker engine
 * answers, otherwise Apache Kafka's own KRaft broker started from its Maven artifacts in a child
 * JVM ({@link BrokerSelection} decides once per JVM and logs why). Either way on loopback, with
 * topics never created automatically, and removed with its data by {@link #close()}.
 *
 * <p>Not thread-safe: one test drives it. {@link #start} and {@link #restart} block until the
 * broker answers, at most the given timeout.
 */
public final class KafkaBroker implements AutoCloseable {

    /** Cold start is 5-8 s on an idle machine; a loaded CI runner gets more, still bounded. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(90);

    private final RunningBroker broker;

    private KafkaBroker(RunningBroker broker) {
        this.broker = broker;
    }

    /** A broker with the default settings (see {@code BrokerMain}), started. */
    public static KafkaBroker start() {
        return start(Map.of(), DEFAULT_START_TIMEOUT);
    }

    /**
     * A broker with extra broker settings (e.g. {@code log.retention.ms}), started within
     * {@code startTimeout}; on failure it is removed and the exception carries its last log lines.
     */
    public static KafkaBroker start(Map<String, String> settings, Duration startTimeout) {
        return new KafkaBroker(switch (BrokerSelection.current().kind()) {
            case TESTCONTAINERS -> ContainerBroker.start(settings, startTimeout);
            case KRAFT_PROCESS -> KraftProcessBroker.start(settings, startTimeout);
        });
    }

    /** {@code 127.0.0.1:<port>}, what clients are given as {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Whether the broker is running. */
    public boolean running() {
        return broker.running();
    }

    /** SIGKILL: the broker is lost at once, without a clean shutdown; its data stays for {@link #restart()}. */
    public void kill() {
        broker.kill();
    }

    /** Starts the broker again on the same address and data (after {@link #kill()} or {@link #stop()}). */
    public void restart() {
        broker.restart();
    }

    /** A clean shutdown; killed if it takes over 30 s. Data stays. */
    public void stop() {
        broker.stop();
    }

    /** Stops the broker and removes its data. Idempotent. */
    @Override
    public void close() {
        broker.close();
    }

    /** The broker's log, for a failing test's message (its directory holds the broker's data). */
    public Path logFile() {
        return broker.logFile();
    }
}
