/**
 * The cluster event log on Kafka: {@link io.kproxy.journal.kafka.KafkaEventLog}, an
 * {@link io.kproxy.journal.spi.EventLog} on partition 0 of one topic (same envelopes and codec as
 * the local journal, Kafka offsets as log offsets, Kafka's timestamp index for time lookups,
 * snapshots in a compacted side topic), its topic layout and checks, and the image of a topic's
 * objects that the recorder diffs a relist against and that snapshots carry. Required by the app
 * only.
 */
module io.kproxy.journal.kafka {
    requires transitive io.kproxy.journal;
    requires kafka.clients;
    requires org.slf4j;

    exports io.kproxy.journal.kafka;
}
