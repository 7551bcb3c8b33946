package io.kproxy.journal.kafka;

import static io.kproxy.testkit.ServiceFixture.service;

import io.kproxy.journal.spi.EventLog;
import io.kproxy.kafka.testkit.KafkaBroker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One broker per test class (a cold start is 5-8 s), a fresh pair of topics per test, and a Service draft. */
abstract class SharedBroker {

    private static final AtomicInteger TOPICS = new AtomicInteger();
    static KafkaBroker broker;

    @BeforeAll
    static void startBroker() {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** A new topic (and its snapshot topic) of {@code cluster} on the shared broker. */
    static KafkaLogOptions newTopic(String cluster, Duration timeout) {
        KafkaLogOptions o = KafkaLogOptions.of(broker.bootstrapServers(), "log-" + TOPICS.incrementAndGet(), cluster).withTimeout(timeout);
        Topics.create(o, (short) 1, Duration.ofDays(7).toMillis());
        return o;
    }

    /** A ClusterIP Service {@code default/<name>} observed by the source. */
    static EventLog.Draft svc(String name) {
        return new EventLog.Draft("source/kube", service("default", name).clusterIP("10.96.0.10").port("http", 80, "TCP").observed());
    }
}
