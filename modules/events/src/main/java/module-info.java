/**
 * The event log's contract: the sealed {@link io.kproxy.events.ClusterEvent} family, the
 * {@link io.kproxy.events.Envelope} the log wraps each one in, and the versioned binary
 * {@link io.kproxy.events.EventCodec}. Bytes in, bytes out: no I/O.
 */
module io.kproxy.events {
    requires transitive io.kproxy.model;

    exports io.kproxy.events;
}
