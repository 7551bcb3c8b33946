package io.kproxy.kafka.testkit;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which broker {@link KafkaBroker} starts, decided in this one place, once per JVM, and logged
 * once: Testcontainers' Kafka module when it is on the class path and a Docker engine answers
 * (Testcontainers' own check, {@code DockerClientFactory.isDockerAvailable()}: the environment,
 * {@code ~/.testcontainers.properties}, the socket, then a ping), otherwise Kafka's KRaft broker in
 * a child JVM. The system property {@value #PROPERTY} ({@code auto}, {@code kraft},
 * {@code testcontainers}) overrides it; {@code testcontainers} without a Docker engine is an error,
 * not a silent fallback. Thread-safe.
 */
public final class BrokerSelection {

    /** The override's system property. */
    public static final String PROPERTY = "kproxy.kafka.broker";

    private static final Logger LOG = LoggerFactory.getLogger(BrokerSelection.class);
    private static final String DOCKER_CLIENT_FACTORY = "org.testcontainers.DockerClientFactory";
    private static Choice current;

    /** The two brokers. */
    public enum Kind { TESTCONTAINERS, KRAFT_PROCESS }

    /** A choice and why, for the log line. */
    public record Choice(Kind kind, String reason) {
        public Choice {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }
    }

    private BrokerSelection() {
    }

    /** This JVM's choice: decided on the first call (which may block a few seconds on the Docker check), logged once. */
    public static synchronized Choice current() {
        if (current == null) {
            current = choose(Optional.ofNullable(System.getProperty(PROPERTY)), testcontainersPresent(), BrokerSelection::dockerAvailable);
            LOG.info("decision=kafka-test-broker broker={} reason=\"{}\"", current.kind(), current.reason());
        }
        return current;
    }

    /**
     * The choice for an override ({@value #PROPERTY}), whether Testcontainers is on the class path,
     * and a Docker check, which is asked only when it matters. Pure apart from {@code docker}.
     *
     * @throws IllegalStateException for an unknown override, or {@code testcontainers} without Testcontainers or Docker
     */
    static Choice choose(Optional<String> override, boolean testcontainers, BooleanSupplier docker) {
        String mode = override.map(String::strip).filter(s -> !s.isEmpty()).orElse("auto");
        switch (mode) {
            case "kraft" -> {
                return new Choice(Kind.KRAFT_PROCESS, PROPERTY + "=kraft");
            }
            case "testcontainers" -> {
                if (!testcontainers) {
                    throw new IllegalStateException(PROPERTY + "=testcontainers but org.testcontainers:testcontainers-kafka is not on the class path");
                }
                if (!docker.getAsBoolean()) {
                    throw new IllegalStateException(PROPERTY + "=testcontainers but no Docker engine answers");
                }
                return new Choice(Kind.TESTCONTAINERS, PROPERTY + "=testcontainers");
            }
            case "auto" -> {
                if (!testcontainers) {
                    return new Choice(Kind.KRAFT_PROCESS, "Testcontainers is not on the class path");
                }
                return docker.getAsBoolean() ? new Choice(Kind.TESTCONTAINERS, "a Docker engine answers")
                        : new Choice(Kind.KRAFT_PROCESS, "no Docker engine answers");
            }
            default -> throw new IllegalStateException(PROPERTY + "=" + mode + ": expected auto, kraft or testcontainers");
        }
    }

    private static boolean testcontainersPresent() {
        try {
            Class.forName(DOCKER_CLIENT_FACTORY, false, BrokerSelection.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Testcontainers' own check: it finds the engine as it would to start a container, and pings it. */
    private static boolean dockerAvailable() {
        try {
            return ContainerBroker.dockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("decision=no-docker error=\"{}\"", e.toString());
            return false;
        }
    }
}
