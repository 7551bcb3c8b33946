package io.kproxy.journal.kafka;

import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Appends bytes the codec did not write (a record of a newer format), with the right cluster header. */
final class RawAppends {

    private RawAppends() {
    }

    static void append(KafkaLogOptions o, byte[] value) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", o.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(o.topic(), 0, null, value);
            r.headers().add(TopicReader.CLUSTER_HEADER, o.cluster().getBytes(StandardCharsets.UTF_8));
            producer.send(r).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
