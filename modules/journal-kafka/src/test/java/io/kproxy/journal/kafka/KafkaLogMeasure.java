package io.kproxy.journal.kafka;

import static io.kproxy.testkit.EndpointSliceFixture.slice;
import static io.kproxy.testkit.ServiceFixture.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceSynced;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.kafka.testkit.KafkaBroker;
import io.kproxy.model.NodeName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/benchmarks.md, "Kafka event log" (not part of the suite: the name matches no include; run
 * it by name with {@code -Dtest=KafkaLogMeasure}). At {@code -Dmeasure.services} Services (default
 * 10,000) with 5 endpoints each: the recorder's append rate (a transactional writer, batches of
 * 256 as the source appends them), the snapshot of the topic's objects, and a new follower's cold
 * start from that snapshot into a real local journal (fsync). Prints one line per number.
 */
class KafkaLogMeasure {

    @Test
    void measure() throws Exception {
        int n = Integer.getInteger("measure.services", 10_000);
        List<EventLog.Draft> drafts = new ArrayList<>(2 * n + 2);
        for (int i = 0; i < n; i++) {
            String name = "svc-" + i;
            drafts.add(new EventLog.Draft("source/kube", service("bench", name).clusterIP("10.96." + (i / 250) + "." + (i % 250 + 1))
                    .port("http", 80, "TCP").observed()));
            var s = slice("bench", name + "-1", name).port("http", 8080, "TCP");
            for (int e = 0; e < 5; e++) {
                s.endpoint("10." + (100 + i / 60000) + "." + ((i / 250) % 240) + "." + ((i % 250) + 1)).node("node-" + e).ready(true);
            }
            drafts.add(new EventLog.Draft("source/kube", s.observed()));
        }
        drafts.add(new EventLog.Draft("source/kube", new SourceSynced(ResourceKind.SERVICE, "1")));
        drafts.add(new EventLog.Draft("source/kube", new SourceSynced(ResourceKind.ENDPOINT_SLICE, "1")));
        try (KafkaBroker broker = KafkaBroker.start()) {
            KafkaLogOptions o = KafkaLogOptions.of(broker.bootstrapServers(), "bench", "bench").withTimeout(Duration.ofSeconds(30))
                    .withTransactionalId("kproxy-recorder-bench");
            Topics.create(o, (short) 1, Duration.ofDays(7).toMillis());
            try (KafkaEventLog log = KafkaEventLog.open(o)) {
                log.fence();
                long t0 = System.nanoTime();
                for (int i = 0; i < drafts.size(); i += 256) {
                    log.append(drafts.subList(i, Math.min(drafts.size(), i + 256))).join();
                }
                double secs = (System.nanoTime() - t0) / 1e9;
                System.out.printf("append records=%d seconds=%.2f records_per_second=%.0f%n", drafts.size(), secs, drafts.size() / secs);

                long t1 = System.nanoTime();
                TopicImage image = new TopicImage();
                LogPages pages = LogPages.refusing(log, 0, Long.MAX_VALUE, 4096);
                while (pages.hasNext()) {
                    for (Envelope e : pages.next()) {
                        image.apply(e);
                    }
                }
                byte[] data = image.encode();
                log.storeSnapshot(image.offset(), data);
                System.out.printf("snapshot offset=%d bytes=%d fold_and_store_seconds=%.2f%n", image.offset(), data.length,
                        (System.nanoTime() - t1) / 1e9);
            }
            Path dir = Files.createTempDirectory("kproxy-measure-");
            try (KafkaEventLog topic = KafkaEventLog.open(o.withTransactionalId(""));
                    LocalJournal local = LocalJournal.open(JournalOptions.defaults(dir.resolve("journal")));
                    Follower f = new Follower(topic, local, new NodeName("node-0"))) {
                long t2 = System.nanoTime();
                f.start();
                long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
                long last = topic.nextOffset() - 2; // the snapshot's offset: the last record before the commit marker
                while (f.status().lastMirrored() < last && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                System.out.printf("follower cold start from snapshot: records=%d seconds=%.2f%n", local.nextOffset(),
                        (System.nanoTime() - t2) / 1e9);
                assertThat(f.status().lastMirrored()).isGreaterThanOrEqualTo(last);
            } finally {
                try (Stream<Path> files = Files.walk(dir)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
