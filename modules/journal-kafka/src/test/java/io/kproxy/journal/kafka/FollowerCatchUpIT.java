package io.kproxy.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.NodeName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * chaos/broker-loss.md's far-behind follower and prefix removed by retention: a follower stopped
 * while the topic grew by 20,000 records catches up with each record once, in order; and a prefix
 * removed by the broker's own retention (segments rolled and deleted by age, not
 * {@code deleteRecords}) makes a new follower start from the snapshot.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FollowerCatchUpIT extends SharedBroker {

    private static final NodeName ME = new NodeName("node-a");

    @Test
    void aFollowerFarBehindCatchesUpWithEachRecordOnceInOrder() throws Exception {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(30));
        MemoryEventLog local = new MemoryEventLog();
        // A transactional writer, as the recorder: each append's commit marker takes an offset.
        try (KafkaEventLog writer = KafkaEventLog.open(o.withTransactionalId("kproxy-recorder-far"))) {
            writer.fence();
            writer.append(List.of(svc("first"))).join();
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> f.status().lastMirrored() == 0);
                FollowerIT.close(f, topic);
            }
            // 20,000 records while the follower is stopped, in transactions of 256 as the recorder appends.
            List<EventLog.Draft> batch = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                batch.add(svc("s" + i));
                if (batch.size() == 256) {
                    writer.append(batch).join();
                    batch.clear();
                }
            }
            batch.add(new EventLog.Draft("source/kube", new SourceSynced(ResourceKind.SERVICE, "9")));
            writer.append(batch).join();
            // A commit can return before its markers are written (the transaction coordinator answers,
            // then writes them), so the last transaction may become readable (read_committed) a moment later.
            await("every record readable").atMost(Duration.ofSeconds(30)).until(() -> writer.read(0, 100_000).size() == 20_002);
            List<Long> all = writer.read(0, 100_000).stream().map(Envelope::offset).toList();
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(120)).until(() -> f.status().lastMirrored() == all.getLast());
                // In offsets: the last transaction's commit marker is after the last record.
                await().atMost(Duration.ofSeconds(10)).until(() -> f.status().lag() <= 1);
                FollowerIT.close(f, topic);
            }
            assertThat(FollowerIT.mirrored(local)).as("each record once, in order, none skipped").isEqualTo(all);
        }
    }

    @Test
    void aPrefixRemovedByRetentionStartsANewFollowerFromTheSnapshot() throws Exception {
        KafkaLogOptions o = KafkaLogOptions.of(broker.bootstrapServers(), "retained", "c1").withTimeout(Duration.ofSeconds(10));
        Topics.create(o, (short) 1, 2_000);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()));
                KafkaEventLog writer = KafkaEventLog.open(o)) {
            // Segments roll after 300 ms (at the next append); the broker checks retention every second.
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, o.topic()),
                    List.of(new AlterConfigOp(new ConfigEntry("segment.ms", "300"), AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            writer.append(List.of(svc("a"), svc("b"), svc("c"))).join();
            Thread.sleep(2_500);
            writer.append(List.of(svc("d"))).join(); // rolls: a, b, c (and their commit marker) are in an old segment now
            TopicImage image = new TopicImage();
            writer.read(0, 100).forEach(image::apply);
            writer.storeSnapshot(image.offset(), image.encode());
            await("retention removes the old segment").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> writer.firstOffset() > 0);
            assertThat(writer.firstOffset()).as("a, b and c are gone").isGreaterThan(2);

            MemoryEventLog local = new MemoryEventLog();
            try (KafkaEventLog topic = KafkaEventLog.open(o); Follower f = new Follower(topic, local, ME).start()) {
                await().atMost(Duration.ofSeconds(30)).until(() -> f.status().lastMirrored() == image.offset());
                writer.append(List.of(svc("e"))).join();
                long e = writer.read(writer.firstOffset(), 100).getLast().offset();
                assertThat(e).isGreaterThan(image.offset());
                await().atMost(Duration.ofSeconds(30)).until(() -> f.status().lastMirrored() == e);
                FollowerIT.close(f, topic);
                String fromSnapshot = "kafka@" + image.offset() + "/kafka-snapshot";
                assertThat(local.read(0, 100)).extracting(Envelope::source).containsExactly(fromSnapshot, fromSnapshot, fromSnapshot,
                        fromSnapshot, "kafka@" + e + "/source/kube");
            }
        }
    }
}
