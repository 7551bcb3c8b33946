package io.kproxy.journal.kafka;

import static io.kproxy.testkit.NodeFixture.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A follower mirrors the topic into a local log with Kafka offsets, resumes, starts from snapshots, survives a lost broker. */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FollowerIT extends SharedBroker {

    private static final NodeName ME = new NodeName("node-a");

    /** Kafka offsets named by the local log's mirrored records, in local order. */
    static List<Long> mirrored(EventLog local) {
        List<Long> out = new ArrayList<>();
        for (Envelope e : local.read(0, 100_000)) {
            MirroredOffsets.offsetOf(e.source()).ifPresent(out::add);
        }
        return out;
    }

    @Test
    void mirrorsTheClusterFactsForThisNodeAndResumesWithoutDuplicates() throws Exception {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(5));
        MemoryEventLog local = new MemoryEventLog();
        try (KafkaEventLog writer = KafkaEventLog.open(o)) {
            writer.append(List.of(svc("a"), new EventLog.Draft("source/kube", node("node-a").observed()),
                    new EventLog.Draft("source/kube", node("node-b").observed()),
                    new EventLog.Draft("intruder", new DataplanePinned(0, "not from a topic")),
                    new EventLog.Draft("intruder", new ConfigRecorded(ME, Json.Obj.EMPTY)),
                    new EventLog.Draft("source/kube", new SourceSynced(ResourceKind.SERVICE, "3")))).join();
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> f.status().lastMirrored() == 5);
                assertThat(f.status().connected()).isTrue();
                close(f, topic);
            }
            assertThat(mirrored(local)).containsExactly(0L, 1L, 5L); // node-b, the pin and the config are not this node's facts
            assertThat(local.read(0, 10).get(0).source()).isEqualTo("kafka@0/source/kube");
            local.append("engine", new SourceSynced(ResourceKind.NODE, "x")).join(); // the node's own records come between
            writer.append(List.of(svc("b"))).join();
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> f.status().lastMirrored() == 6);
                close(f, topic);
            }
            assertThat(mirrored(local)).containsExactly(0L, 1L, 5L, 6L);
        }
    }

    @Test
    void aFollowerBehindARemovedPrefixStartsFromTheSnapshot() throws Exception {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(5));
        try (KafkaEventLog writer = KafkaEventLog.open(o); Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            writer.append(List.of(svc("a"), svc("b"), svc("c"), new EventLog.Draft("source/kube", new SourceSynced(ResourceKind.SERVICE, "4"))))
                    .join();
            TopicImage image = new TopicImage();
            writer.read(0, 10).forEach(image::apply);
            writer.storeSnapshot(image.offset(), image.encode());
            writer.append(List.of(svc("d"))).join();
            admin.deleteRecords(Map.of(new TopicPartition(o.topic(), 0), RecordsToDelete.beforeOffset(4))).all().get(30, TimeUnit.SECONDS);
            MemoryEventLog local = new MemoryEventLog();
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> f.status().lastMirrored() == 4);
                close(f, topic);
            }
            List<Envelope> got = local.read(0, 100);
            // a, b, c and the relist barrier from the snapshot (covering offset 3), then d from the topic
            assertThat(got).extracting(Envelope::source).containsExactly("kafka@3/kafka-snapshot", "kafka@3/kafka-snapshot",
                    "kafka@3/kafka-snapshot", "kafka@3/kafka-snapshot", "kafka@4/source/kube");
        }
    }

    @Test
    void aLostBrokerDisconnectsTheFollowerUntilItReturns() throws Exception {
        try (KafkaBroker own = KafkaBroker.start()) {
            KafkaLogOptions o = KafkaLogOptions.of(own.bootstrapServers(), "lost", "c1").withTimeout(Duration.ofSeconds(5));
            Topics.create(o, (short) 1, Duration.ofDays(7).toMillis());
            MemoryEventLog local = new MemoryEventLog();
            try (KafkaEventLog writer = KafkaEventLog.open(o)) {
                writer.append(List.of(svc("a"))).join();
            }
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(60)).until(() -> f.status().lastMirrored() == 0 && f.status().connected());
                own.kill();
                await().atMost(Duration.ofSeconds(60)).until(() -> !f.status().connected());
                own.restart();
                try (KafkaEventLog writer = KafkaEventLog.open(o)) {
                    writer.append(List.of(svc("b"))).join();
                }
                await().atMost(Duration.ofSeconds(90)).until(() -> f.status().connected() && f.status().lastMirrored() >= 1);
                close(f, topic);
            }
            assertThat(mirrored(local)).containsExactly(0L, 1L);
        }
    }

    @Test
    void aForeignRecordStopsTheFollowerAndNothingAfterItIsMirrored() throws Exception {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(5));
        try (KafkaEventLog writer = KafkaEventLog.open(o)) {
            writer.append(List.of(svc("a"))).join();
        }
        KafkaLogOptions other = new KafkaLogOptions(o.bootstrapServers(), o.topic(), "c2", "x", "", o.timeout(), o.clock());
        try (KafkaEventLog writer = KafkaEventLog.open(other)) {
            writer.append(List.of(svc("b"))).join();
        }
        try (KafkaEventLog writer = KafkaEventLog.open(o)) {
            writer.append(List.of(svc("c"))).join();
        }
        MemoryEventLog local = new MemoryEventLog();
        try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
            ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> f.failure().get(60, TimeUnit.SECONDS));
            assertThat(e.getCause()).isInstanceOfSatisfying(KafkaLogException.class,
                    k -> assertThat(k.problem()).isEqualTo(KafkaLogException.Problem.FOREIGN_CLUSTER));
            close(f, topic);
        }
        assertThat(mirrored(local)).isEmpty(); // the batch holding the foreign record is refused whole
    }

    static void close(Follower f, KafkaEventLog topic) throws InterruptedException {
        f.close();
        topic.close();
        f.await(Duration.ofSeconds(15));
    }
}
