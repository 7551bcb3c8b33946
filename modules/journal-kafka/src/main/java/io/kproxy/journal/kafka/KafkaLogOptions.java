package io.kproxy.journal.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * How to reach a cluster's event log on Kafka.
 *
 * @param bootstrapServers comma-separated {@code host:port} list
 * @param topic            the log's topic (one partition); snapshots live in {@link #snapshotTopic()}
 * @param cluster          the Kubernetes cluster's identity every record of the topic carries
 *                         (header {@code kproxy-cluster}); a record with another one is refused
 * @param clientId         the Kafka client id (shows in the broker's logs and quotas)
 * @param transactionalId  "" for a log that appends with an idempotent producer only; otherwise the
 *                         transactional id the recorder's replicas share, so that a new leader's
 *                         producer fences the old one (docs/kafka.md, "Fencing")
 * @param timeout          the longest one call waits for the broker (then: {@code UNREACHABLE})
 * @param clock            stamps {@code recordedAt} (and the Kafka timestamp) of appended records
 */
public record KafkaLogOptions(String bootstrapServers, String topic, String cluster, String clientId, String transactionalId,
        Duration timeout, Clock clock) {

    /** Kafka's legal topic names ({@code org.apache.kafka.common.internals.Topic}), with room for the snapshot suffix. */
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,239}");
    /** The side topic's suffix: {@code <topic>.snapshots}. */
    public static final String SNAPSHOT_SUFFIX = ".snapshots";

    public KafkaLogOptions {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers is required");
        }
        if (topic == null || !TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("topic must be 1-239 of a-z, A-Z, 0-9, '.', '_', '-': " + topic);
        }
        if (cluster == null || cluster.isBlank()) {
            throw new IllegalArgumentException("cluster (the Kubernetes cluster's identity) is required");
        }
        if (clientId == null || transactionalId == null || clock == null) {
            throw new IllegalArgumentException("clientId, transactionalId and clock are required (\"\" for none)");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
    }

    /** A reader/idempotent writer with a 10 s timeout and the system clock. */
    public static KafkaLogOptions of(String bootstrapServers, String topic, String cluster) {
        return new KafkaLogOptions(bootstrapServers, topic, cluster, "kproxy", "", Duration.ofSeconds(10), Clock.systemUTC());
    }

    public KafkaLogOptions withTransactionalId(String id) {
        return new KafkaLogOptions(bootstrapServers, topic, cluster, clientId, id, timeout, clock);
    }

    public KafkaLogOptions withClientId(String id) {
        return new KafkaLogOptions(bootstrapServers, topic, cluster, id, transactionalId, timeout, clock);
    }

    public KafkaLogOptions withTimeout(Duration t) {
        return new KafkaLogOptions(bootstrapServers, topic, cluster, clientId, transactionalId, t, clock);
    }

    public KafkaLogOptions withClock(Clock c) {
        return new KafkaLogOptions(bootstrapServers, topic, cluster, clientId, transactionalId, timeout, c);
    }

    /** {@code <topic>.snapshots}: the compacted side topic of folded-state snapshots. */
    public String snapshotTopic() {
        return topic + SNAPSHOT_SUFFIX;
    }
}
