package io.kproxy.journal.kafka;

import io.kproxy.journal.spi.EventLogException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads ranges of partition 0 of the log's topics with one consumer (no group: it assigns and
 * seeks; nothing is committed), {@code read_committed}, so that records of an aborted or
 * unfinished transaction (a fenced recorder's) are never seen. Every record's cluster header is
 * checked. Thread-safe by one lock; each call blocks at most about the options' timeout.
 */
final class TopicReader implements AutoCloseable {

    /** The header naming the Kubernetes cluster a record belongs to. */
    static final String CLUSTER_HEADER = "kproxy-cluster";

    private final KafkaLogOptions options;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final byte[] cluster;

    TopicReader(KafkaLogOptions options, String clientSuffix) {
        this.options = options;
        this.cluster = options.cluster().getBytes(StandardCharsets.UTF_8);
        this.consumer = new KafkaConsumer<>(consumerProps(options, clientSuffix), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static Properties consumerProps(KafkaLogOptions options, String clientSuffix) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrapServers());
        p.setProperty(ConsumerConfig.CLIENT_ID_CONFIG, options.clientId() + "-" + clientSuffix);
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // A position before the log's start (retention removed a prefix) is an error to report, never a silent jump.
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        int ms = (int) Math.min(Integer.MAX_VALUE, options.timeout().toMillis());
        p.setProperty(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.setProperty(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.setProperty(ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return p;
    }

    /** Up to {@code max} records of {@code topic} from {@code from} on (fewer at its end). */
    synchronized List<ConsumerRecord<byte[], byte[]>> read(String topic, long from, int max) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try {
            long end = end(topic);
            if (from >= end || max <= 0) {
                return List.of();
            }
            long begin = begin(topic);
            if (from < begin) {
                throw new EventLogException("offsets " + from + ".." + (begin - 1) + " of topic " + topic
                        + " were removed by retention (the log starts at " + begin + ")", from, begin - 1);
            }
            consumer.assign(List.of(tp));
            consumer.seek(tp, from);
            List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
            long deadline = System.nanoTime() + options.timeout().toNanos();
            while (out.size() < max && consumer.position(tp, options.timeout()) < end) {
                if (System.nanoTime() - deadline > 0) {
                    throw Topics.unreachable(options, null);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200)).records(tp)) {
                    if (r.offset() >= from && out.size() < max) {
                        requireCluster(r);
                        out.add(r);
                    }
                }
            }
            return out;
        } catch (OffsetOutOfRangeException e) {
            long begin = begin(topic);
            throw new EventLogException("offset " + from + " of topic " + topic + " was removed by retention (the log starts at " + begin + ")",
                    from, Math.max(from, begin - 1));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw Topics.unreachable(options, e);
        } catch (KafkaException e) {
            throw Topics.translate(options, "cannot read topic " + topic, e);
        }
    }

    /** The offset after the last committed record (the last stable offset). */
    synchronized long end(String topic) {
        return edge(topic, true);
    }

    /** The first offset the topic still holds. */
    synchronized long begin(String topic) {
        return edge(topic, false);
    }

    private long edge(String topic, boolean end) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try {
            return (end ? consumer.endOffsets(List.of(tp), options.timeout()) : consumer.beginningOffsets(List.of(tp), options.timeout())).get(tp);
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw Topics.unreachable(options, e);
        } catch (KafkaException e) {
            throw Topics.translate(options, "cannot read the " + (end ? "end" : "start") + " of topic " + topic, e);
        }
    }

    /** Kafka's timestamp index: the first offset whose timestamp is at or after {@code epochMillis}; -1 if none. */
    synchronized long offsetForTime(String topic, long epochMillis) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try {
            Map<TopicPartition, OffsetAndTimestamp> m = consumer.offsetsForTimes(Map.of(tp, epochMillis), options.timeout());
            OffsetAndTimestamp o = m.get(tp);
            return o == null ? -1 : o.offset();
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            throw Topics.unreachable(options, e);
        } catch (KafkaException e) {
            throw Topics.translate(options, "cannot look up a time in topic " + topic, e);
        }
    }

    private void requireCluster(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(CLUSTER_HEADER);
        if (h == null || !java.util.Arrays.equals(h.value(), cluster)) {
            String found = h == null ? "no cluster header" : "cluster \"" + io.kproxy.model.Printable.escape(new String(h.value(), StandardCharsets.UTF_8)) + "\"";
            throw new KafkaLogException(KafkaLogException.Problem.FOREIGN_CLUSTER, "record " + r.offset() + " of topic " + r.topic() + " has "
                    + found + ", not cluster \"" + options.cluster() + "\": the topic is not this cluster's event log");
        }
    }

    @Override
    public synchronized void close() {
        consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}
