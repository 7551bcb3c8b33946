package io.kproxy.kafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fixture starts a real broker, keeps its data across a kill and a restart, and removes it at the end. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KafkaBrokerIT {

    @Test
    void aRecordSurvivesAKillAndTheDirectoryGoesAtClose() throws Exception {
        Path dir;
        try (KafkaBroker broker = KafkaBroker.start()) {
            dir = broker.logFile().getParent();
            assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:");
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> p = new KafkaProducer<>(props(broker), new StringSerializer(), new StringSerializer())) {
                p.send(new ProducerRecord<>("t", "k", "v")).get(30, TimeUnit.SECONDS);
            }
            broker.kill();
            assertThat(broker.running()).isFalse();
            broker.restart();
            assertThat(read(broker)).containsExactly("v");
        }
        assertThat(Files.exists(dir)).isFalse();
    }

    @Test
    void aBrokerThatCannotStartIsReportedWithItsLog() {
        // An invalid setting: the broker refuses it and exits; the failure says so and carries the log.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KafkaBroker.start(Map.of("num.partitions", "-5"), Duration.ofSeconds(60)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("exited before it was ready");
    }

    private static Properties props(KafkaBroker broker) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", broker.bootstrapServers());
        return p;
    }

    private static List<String> read(KafkaBroker broker) {
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props(broker), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition("t", 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            for (int i = 0; i < 60; i++) {
                ConsumerRecords<String, String> rs = c.poll(Duration.ofSeconds(1));
                if (!rs.isEmpty()) {
                    return rs.records(tp).stream().map(r -> r.value()).toList();
                }
            }
            return List.of();
        }
    }
}
