/**
 * The event log: the {@link io.kproxy.journal.spi.EventLog} SPI every log implements (the local
 * journal here, Kafka elsewhere), the local segmented journal with group commit, torn-tail
 * recovery, a time index, snapshots and retention, and the inspection API the CLI uses.
 */
module io.kproxy.journal {
    requires transitive io.kproxy.events;
    requires transitive reactor.core;
    requires transitive org.reactivestreams;
    requires org.slf4j;

    exports io.kproxy.journal;
    exports io.kproxy.journal.spi;
}
