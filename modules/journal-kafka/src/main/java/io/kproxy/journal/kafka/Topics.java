package io.kproxy.journal.kafka;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The log's two topics (docs/kafka.md, "Layout"): {@code <topic>}, one partition, records kept
 * by time or size ({@code cleanup.policy=delete}); {@code <topic>.snapshots}, one partition,
 * compacted (only the newest snapshot per key stays). {@link #check} is what every open runs;
 * {@link #create} is for the recorder's first start and for tests (deploy/ creates them with
 * the same settings). Blocks at most the options' timeout per call.
 */
public final class Topics {

    /** Snapshots can be large (every object of the cluster): the side topic allows 64 MiB records. */
    static final int SNAPSHOT_MAX_BYTES = 64 << 20;

    private Topics() {
    }

    /** The settings of the log topic, for {@code kafka-topics.sh --create} and {@link #create}. */
    public static Map<String, String> logTopicConfig(long retentionMs) {
        return Map.of("cleanup.policy", "delete", "retention.ms", Long.toString(retentionMs), "min.insync.replicas", "1",
                "message.timestamp.type", "CreateTime");
    }

    /** The settings of the snapshot topic. */
    public static Map<String, String> snapshotTopicConfig() {
        return Map.of("cleanup.policy", "compact", "max.message.bytes", Integer.toString(SNAPSHOT_MAX_BYTES),
                "min.cleanable.dirty.ratio", "0.1", "segment.ms", "3600000");
    }

    /**
     * Creates both topics with one partition each (an existing topic is left as it is and then
     * checked by {@link #check}, once the broker describes both).
     */
    public static void create(KafkaLogOptions options, short replicas, long retentionMs) {
        try (Admin admin = admin(options)) {
            for (NewTopic t : List.of(new NewTopic(options.topic(), 1, replicas).configs(logTopicConfig(retentionMs)),
                    new NewTopic(options.snapshotTopic(), 1, replicas).configs(snapshotTopicConfig()))) {
                try {
                    admin.createTopics(List.of(t)).all().get(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw translate(options, "cannot create topic " + t.name(), e.getCause());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaLogException(KafkaLogException.Problem.UNREACHABLE, "interrupted", e);
        } catch (TimeoutException e) {
            throw unreachable(options, e);
        }
        // The controller has created them, but a broker's metadata may not hold them yet: its
        // describe answers "unknown topic" for a moment (seen in CI). Wait for them, within the timeout.
        long deadline = System.nanoTime() + options.timeout().toNanos();
        while (true) {
            try {
                check(options);
                return;
            } catch (KafkaLogException e) {
                if (e.problem() != KafkaLogException.Problem.MISSING_TOPIC || System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaLogException(KafkaLogException.Problem.UNREACHABLE, "interrupted", e);
            }
        }
    }

    /** Both topics exist with exactly one partition; otherwise a {@link KafkaLogException} saying which and why. */
    public static void check(KafkaLogOptions options) {
        try (Admin admin = admin(options)) {
            for (String name : List.of(options.topic(), options.snapshotTopic())) {
                TopicDescription d;
                try {
                    d = admin.describeTopics(List.of(name)).allTopicNames().get(options.timeout().toMillis(), TimeUnit.MILLISECONDS).get(name);
                } catch (ExecutionException e) {
                    throw translate(options, "cannot describe topic " + name, e.getCause());
                }
                if (d.partitions().size() != 1) {
                    throw new KafkaLogException(KafkaLogException.Problem.NOT_ONE_PARTITION, "topic " + name + " has "
                            + d.partitions().size() + " partitions; the event log needs exactly one (a total order)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaLogException(KafkaLogException.Problem.UNREACHABLE, "interrupted", e);
        } catch (TimeoutException e) {
            throw unreachable(options, e);
        }
    }

    static KafkaLogException translate(KafkaLogOptions options, String what, Throwable cause) {
        if (cause instanceof UnknownTopicOrPartitionException) {
            return new KafkaLogException(KafkaLogException.Problem.MISSING_TOPIC, what + ": the topic does not exist on "
                    + options.bootstrapServers() + " (create it, see deploy/kafka-topics.md)", cause);
        }
        if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
            return unreachable(options, cause);
        }
        return new KafkaLogException(KafkaLogException.Problem.REFUSED, what + ": " + cause, cause);
    }

    static KafkaLogException unreachable(KafkaLogOptions options, Throwable cause) {
        return new KafkaLogException(KafkaLogException.Problem.UNREACHABLE, "no Kafka broker answered at " + options.bootstrapServers()
                + " within " + options.timeout().toMillis() + " ms", cause);
    }

    private static Admin admin(KafkaLogOptions options) {
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        p.setProperty(AdminClientConfig.CLIENT_ID_CONFIG, options.clientId() + "-admin");
        int ms = (int) Math.min(Integer.MAX_VALUE, options.timeout().toMillis());
        p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        // An unreachable bootstrap server is answered within the timeout, not after the default backoffs.
        p.setProperty(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return Admin.create(p);
    }
}
