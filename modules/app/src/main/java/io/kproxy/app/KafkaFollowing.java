package io.kproxy.app;

import io.kproxy.config.KproxyConfig;
import io.kproxy.config.ProxyConfig;
import io.kproxy.engine.Engine;
import io.kproxy.journal.kafka.Follower;
import io.kproxy.journal.kafka.KafkaEventLog;
import io.kproxy.journal.kafka.KafkaLogOptions;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.NodeName;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The agent's Kafka mode (docs/kafka.md, "Followers"): the cluster's topic instead of a watch of
 * the API server. The topic is opened before anything else starts (an unreachable broker, a
 * missing topic, a topic of more than one partition: the agent refuses to start, exit 1); the
 * {@link Follower} mirrors it into the local journal the engine tails; the engine's health follows
 * the follower's connection (a broker lost for twice the sync period turns {@code /healthz} 503,
 * as a lost API server does); {@code kproxy_kafka_follower_lag_records} and
 * {@code kproxy_kafka_follower_offset} say how far behind it is.
 */
final class KafkaFollowing {

    private KafkaFollowing() {
    }

    /** The topic's options from {@code kproxy.eventLog.kafka}; the client id defaults to {@code kproxy-<node>}. */
    static KafkaLogOptions options(ProxyConfig config, NodeName node) {
        KproxyConfig.KafkaConfig k = config.kproxy().eventLog().kafka();
        String clientId = k.clientId().isEmpty() ? "kproxy-" + node.value() : k.clientId();
        return new KafkaLogOptions(k.bootstrapServers(), k.topic(), k.cluster(), clientId, "", Duration.ofSeconds(10), Clock.systemUTC());
    }

    /**
     * Whether a Kafka-mode agent has an API client to send its Events with: a kubeconfig, a
     * {@code --master}, or the in-cluster environment ({@code KUBERNETES_SERVICE_HOST}, what
     * client-go's {@code rest.InClusterConfig} reads first). A follower needs no API server; without
     * one of these its Events are off (one INFO line) and nothing about the client is checked.
     */
    static boolean apiClientConfigured(String kubeconfig, String master, Map<String, String> env) {
        return !kubeconfig.isBlank() || !master.isBlank() || !env.getOrDefault("KUBERNETES_SERVICE_HOST", "").isBlank();
    }

    /** Starts following: health and metrics wired, then the follower's thread. */
    static Follower start(KafkaEventLog topic, EventLog local, NodeName node, Engine engine, MeterRegistry registry) {
        Follower f = new Follower(topic, local, node);
        Gauge.builder("kproxy_kafka_follower_lag_records", f, x -> x.status().lag())
                .description("Records on the cluster topic not yet mirrored (-1: unknown)").register(registry);
        Gauge.builder("kproxy_kafka_follower_offset", f, x -> x.status().lastMirrored())
                .description("The last Kafka offset mirrored into the local journal").register(registry);
        Gauge.builder("kproxy_kafka_follower_connected", f, x -> x.status().connected() ? 1 : 0)
                .description("1 while the broker answers").register(registry);
        engine.health().sourceConnected(false);
        f.addListener(s -> engine.health().sourceConnected(s.connected()));
        return f.start();
    }
}
