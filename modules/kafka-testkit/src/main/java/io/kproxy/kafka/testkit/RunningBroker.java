package io.kproxy.kafka.testkit;

import java.nio.file.Path;

/** One started broker behind {@link KafkaBroker}: a KRaft child JVM or a Testcontainers container. Not thread-safe. */
sealed interface RunningBroker extends AutoCloseable permits KraftProcessBroker, ContainerBroker {

    String bootstrapServers();

    boolean running();

    /** Lost at once (SIGKILL), data kept for {@link #restart()}. */
    void kill();

    /** Started again on the same address and data. */
    void restart();

    /** A clean shutdown, data kept. */
    void stop();

    /** Stopped and removed with its data. Idempotent. */
    @Override
    void close();

    Path logFile();
}
