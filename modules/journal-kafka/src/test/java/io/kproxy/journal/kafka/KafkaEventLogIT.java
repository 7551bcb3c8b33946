package io.kproxy.journal.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.testkit.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Kafka event log against Apache Kafka's own broker (kafka-testkit): what it keeps, and each refusal. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaEventLogIT extends SharedBroker {

    @Test
    void recordsKeepTheirKafkaOffsetsAndAreReadBackAndTailed() {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(15));
        try (KafkaEventLog log = KafkaEventLog.open(o)) {
            List<Long> offsets = log.append(List.of(svc("a"), svc("b"))).join();
            assertThat(offsets).containsExactly(0L, 1L);
            long third = log.append("source/kube", new SourceSynced(ResourceKind.SERVICE, "7")).join();
            assertThat(third).isEqualTo(2L);
            List<Envelope> read = log.read(0, 10);
            assertThat(read).extracting(Envelope::offset).containsExactly(0L, 1L, 2L);
            assertThat(read.get(2).event()).isEqualTo(new SourceSynced(ResourceKind.SERVICE, "7"));
            assertThat(log.read(1, 1)).extracting(Envelope::offset).containsExactly(1L);
            assertThat(log.nextOffset()).isEqualTo(3L);
            assertThat(log.firstOffset()).isZero();
            // the two present records come at once; the third arrives live
            var live = log.tail(1).take(3).collectList().toFuture();
            log.append(List.of(svc("c"))).join();
            assertThat(live.orTimeout(30, TimeUnit.SECONDS).join()).extracting(Envelope::offset).containsExactly(1L, 2L, 3L);
        }
    }

    @Test
    void aTimeIsFoundThroughTheTimestampIndex() {
        SettableClock clock = new SettableClock(Instant.parse("2026-11-26T10:00:00.000100Z"));
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(15)).withClock(clock);
        try (KafkaEventLog log = KafkaEventLog.open(o)) {
            log.append(List.of(svc("a"))).join();
            clock.set(Instant.parse("2026-11-26T10:00:00.000500Z")); // same millisecond, later
            log.append(List.of(svc("b"))).join();
            clock.set(Instant.parse("2026-11-26T10:05:00Z"));
            log.append(List.of(svc("c"))).join();
            assertThat(log.offsetAt(Instant.parse("2026-11-26T09:00:00Z"))).hasValue(0);
            assertThat(log.offsetAt(Instant.parse("2026-11-26T10:00:00.000200Z"))).hasValue(1);
            assertThat(log.offsetAt(Instant.parse("2026-11-26T10:01:00Z"))).hasValue(2);
            assertThat(log.offsetAt(Instant.parse("2026-11-26T11:00:00Z"))).isEmpty();
        }
    }

    @Test
    void theNewestUsableSnapshotIsServedFromTheSideTopic() {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(15));
        try (KafkaEventLog log = KafkaEventLog.open(o)) {
            log.append(List.of(svc("a"), svc("b"), svc("c"), svc("d"))).join();
            log.storeSnapshot(1, new byte[] {1});
            log.storeSnapshot(3, new byte[] {3});
            assertThat(log.snapshotAtOrBefore(10)).get().satisfies(s -> assertThat(s.offset()).isEqualTo(3));
            assertThat(log.snapshotAtOrBefore(2)).get().satisfies(s -> assertThat(s.data()).containsExactly(1));
            assertThat(log.snapshotAtOrBefore(0)).isEmpty();
        }
    }

    @Test
    void aPrefixRemovedByRetentionIsALostRangeAndOlderSnapshotsAreNotUsed() throws Exception {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(15));
        try (KafkaEventLog log = KafkaEventLog.open(o); Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            log.append(List.of(svc("a"), svc("b"), svc("c"), svc("d"))).join();
            log.storeSnapshot(0, new byte[] {0});
            log.storeSnapshot(2, new byte[] {2});
            // what retention does to the log: its start moves past a prefix
            admin.deleteRecords(Map.of(new TopicPartition(o.topic(), 0), RecordsToDelete.beforeOffset(3))).all().get(30, TimeUnit.SECONDS);
            assertThat(log.firstOffset()).isEqualTo(3);
            assertThatThrownBy(() -> log.read(0, 10)).isInstanceOfSatisfying(EventLogException.class, e -> {
                assertThat(e.kind()).isEqualTo(EventLogException.Kind.CORRUPT);
                assertThat(e.lostFirst()).isZero();
                assertThat(e.lostLast()).isEqualTo(2);
            });
            assertThat(log.read(3, 10)).extracting(Envelope::offset).containsExactly(3L);
            assertThat(log.snapshotAtOrBefore(10)).get().satisfies(s -> assertThat(s.offset()).isEqualTo(2));
            assertThat(log.snapshotAtOrBefore(1)).isEmpty(); // offset 0's snapshot cannot be continued: 1 and 2 are gone
        }
    }

    @Test
    void aRecordOfANewerFormatIsRefusedAndNothingAfterItIsServed() {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(15));
        try (KafkaEventLog log = KafkaEventLog.open(o)) {
            log.append(List.of(svc("a"))).join();
            RawAppends.append(o, new byte[] {2, 1, 0, 0, 0}); // format version 2: not this build's
            log.append(List.of(svc("b"))).join();
            assertThat(log.read(0, 1)).hasSize(1);
            assertThatThrownBy(() -> log.read(0, 10)).isInstanceOfSatisfying(KafkaLogException.class, e -> {
                assertThat(e.problem()).isEqualTo(KafkaLogException.Problem.UNKNOWN_RECORD);
                assertThat(e.getMessage()).contains("record 1 ").contains("UNKNOWN_VERSION");
                assertThat(e.retryable()).isFalse();
            });
        }
    }

    @Test
    void aTopicOfAnotherClusterIsRefused() {
        KafkaLogOptions theirs = newTopic("cluster-b", Duration.ofSeconds(15));
        try (KafkaEventLog log = KafkaEventLog.open(theirs)) {
            log.append(List.of(svc("a"))).join();
        }
        KafkaLogOptions ours = KafkaLogOptions.of(broker.bootstrapServers(), theirs.topic(), "cluster-a").withTimeout(Duration.ofSeconds(15));
        try (KafkaEventLog log = KafkaEventLog.open(ours)) {
            assertThatThrownBy(() -> log.read(0, 10)).isInstanceOfSatisfying(KafkaLogException.class, e -> {
                assertThat(e.problem()).isEqualTo(KafkaLogException.Problem.FOREIGN_CLUSTER);
                assertThat(e.getMessage()).contains("cluster \"cluster-b\"").contains("not cluster \"cluster-a\"");
            });
        }
    }

    @Test
    void aMissingTopicAndATopicOfManyPartitionsAreRefusedAtOpen() throws Exception {
        KafkaLogOptions missing = KafkaLogOptions.of(broker.bootstrapServers(), "no-such-topic", "c1").withTimeout(Duration.ofSeconds(15));
        assertThatThrownBy(() -> KafkaEventLog.open(missing)).isInstanceOfSatisfying(KafkaLogException.class,
                e -> assertThat(e.problem()).isEqualTo(KafkaLogException.Problem.MISSING_TOPIC));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("wide", 3, (short) 1), new NewTopic("wide.snapshots", 1, (short) 1))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        KafkaLogOptions wide = KafkaLogOptions.of(broker.bootstrapServers(), "wide", "c1").withTimeout(Duration.ofSeconds(15));
        assertThatThrownBy(() -> KafkaEventLog.open(wide)).isInstanceOfSatisfying(KafkaLogException.class,
                e -> assertThat(e.problem()).isEqualTo(KafkaLogException.Problem.NOT_ONE_PARTITION));
    }

    @Test
    void anUnreachableBootstrapServerIsRefusedWithinTheTimeout() {
        KafkaLogOptions o = KafkaLogOptions.of("127.0.0.1:1", "t", "c1").withTimeout(Duration.ofSeconds(3));
        long start = System.nanoTime();
        assertThatThrownBy(() -> KafkaEventLog.open(o)).isInstanceOfSatisfying(KafkaLogException.class, e -> {
            assertThat(e.problem()).isEqualTo(KafkaLogException.Problem.UNREACHABLE);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("127.0.0.1:1");
        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aNewWriterWithTheSameTransactionalIdFencesTheOldOne() {
        KafkaLogOptions o = newTopic("c1", Duration.ofSeconds(15)).withTransactionalId("kproxy-recorder-test");
        try (KafkaEventLog old = KafkaEventLog.open(o); KafkaEventLog next = KafkaEventLog.open(o)) {
            assertThat(old.append(List.of(svc("a"))).join()).containsExactly(0L);
            next.append(List.of(svc("b"))).join(); // initTransactions: the old producer's epoch is over
            assertThatThrownBy(() -> old.append(List.of(svc("zombie"))).join()).isInstanceOf(CompletionException.class)
                    .cause().isInstanceOfSatisfying(KafkaLogException.class,
                            e -> assertThat(e.problem()).isEqualTo(KafkaLogException.Problem.FENCED));
            // offsets skip the commit markers; the zombie's record is never seen
            assertThat(next.read(0, 10)).extracting(e -> ((io.kproxy.events.ServiceObserved) e.event()).service().name())
                    .containsExactly("a", "b");
        }
    }
}
