/**
 * {@code kproxy record}: the cluster's one recorder (docs/kafka.md). Replicas compete for a
 * Lease; the holder fences the previous writer at the Kafka producer, folds the topic, relists
 * the API server and appends only what differs, then records every change, every Node included,
 * and writes snapshots of the topic's objects. Required by the app only.
 */
module io.kproxy.recorder {
    requires transitive io.kproxy.source.kube;
    requires transitive io.kproxy.journal.kafka;
    requires org.slf4j;

    exports io.kproxy.recorder;
}
