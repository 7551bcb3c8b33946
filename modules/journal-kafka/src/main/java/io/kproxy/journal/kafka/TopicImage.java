package io.kproxy.journal.kafka;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.EventCodec;
import io.kproxy.events.Envelope;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.model.Json;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The objects a cluster topic holds after some offset: per resource kind, the latest observation
 * of every object not deleted since, and the kinds that have synced (a fold of the topic's
 * records, no Kubernetes semantics). The recorder diffs a relist against it (a new leader
 * appends only what differs from the topic); its {@link #events()} are what a snapshot of the
 * topic carries, so that a follower that cannot read the topic from its start (retention removed
 * a prefix) mirrors them and then the records after {@link #offset()}: observations, then one
 * {@link SourceRelisted} per synced kind, which also drops what the follower held and the
 * topic no longer has. Records that are no observation or barrier are ignored.
 *
 * <p>Mutable, not thread-safe: one owner folds it.
 */
public final class TopicImage {

    /** The source of the records a snapshot's events are mirrored with. */
    public static final String SNAPSHOT_SOURCE = "kafka-snapshot";

    private final Map<ResourceKind, TreeMap<String, ClusterEvent>> objects = new EnumMap<>(ResourceKind.class);
    private final Map<ResourceKind, String> synced = new EnumMap<>(ResourceKind.class);
    private long offset = -1;

    public TopicImage() {
        for (ResourceKind k : ResourceKind.values()) {
            objects.put(k, new TreeMap<>());
        }
    }

    /** Folds one record (records must come in offset order). */
    public void apply(Envelope e) {
        if (e.offset() <= offset) {
            throw new IllegalArgumentException("record " + e.offset() + " is not after " + offset);
        }
        apply(e.event());
        offset = e.offset();
    }

    private void apply(ClusterEvent event) {
        switch (event) {
            case ServiceObserved s -> objects.get(ResourceKind.SERVICE).put(s.service().toString(), s);
            case ServiceDeleted s -> objects.get(ResourceKind.SERVICE).remove(s.service().toString());
            case EndpointSliceObserved s -> objects.get(ResourceKind.ENDPOINT_SLICE).put(s.slice().toString(), s);
            case EndpointSliceDeleted s -> objects.get(ResourceKind.ENDPOINT_SLICE).remove(s.slice().toString());
            case NodeObserved n -> objects.get(ResourceKind.NODE).put(n.node().value(), n);
            case NodeDeleted n -> objects.get(ResourceKind.NODE).remove(n.node().value());
            case ServiceCIDRObserved c -> objects.get(ResourceKind.SERVICE_CIDR).put(c.name(), c);
            case ServiceCIDRDeleted c -> objects.get(ResourceKind.SERVICE_CIDR).remove(c.name());
            case SourceSynced s -> synced.put(s.kind(), s.resourceVersion());
            case SourceRelisted r -> {
                objects.get(r.kind()).keySet().retainAll(r.keysPresent());
                synced.put(r.kind(), r.resourceVersion());
            }
            case ConfigRecorded _, SyncApplied _, SyncFailed _, DataplanePinned _, DataplaneUnpinned _, LocalAddressesObserved _ -> {
                // a node's own records: no object of the cluster
            }
        }
    }

    /** The offset of the last record folded; -1 before any. */
    public long offset() {
        return offset;
    }

    /** Key ({@code namespace/name}, or {@code name} for Nodes and ServiceCIDRs) to the object's latest observation. */
    public Map<String, ClusterEvent> objects(ResourceKind kind) {
        return Collections.unmodifiableMap(objects.get(kind));
    }

    /** The object of an observation ({@code null} for any other event). */
    public static Json.Obj object(ClusterEvent e) {
        return switch (e) {
            case ServiceObserved s -> s.object();
            case EndpointSliceObserved s -> s.object();
            case NodeObserved n -> n.object();
            case ServiceCIDRObserved c -> c.object();
            case ServiceDeleted _, EndpointSliceDeleted _, NodeDeleted _, ServiceCIDRDeleted _, SourceSynced _, SourceRelisted _,
                 ConfigRecorded _, SyncApplied _, SyncFailed _, DataplanePinned _, DataplaneUnpinned _, LocalAddressesObserved _ -> null;
        };
    }

    /** The kinds with a {@code SourceSynced} or {@code SourceRelisted} folded. */
    public Set<ResourceKind> synced() {
        return synced.isEmpty() ? EnumSet.noneOf(ResourceKind.class) : EnumSet.copyOf(synced.keySet());
    }

    /** The events whose fold gives this image: every observation, then one relist barrier per synced kind. */
    public List<ClusterEvent> events() {
        List<ClusterEvent> out = new ArrayList<>();
        for (ResourceKind k : ResourceKind.values()) {
            out.addAll(objects.get(k).values());
        }
        for (Map.Entry<ResourceKind, String> s : synced.entrySet()) {
            out.add(new SourceRelisted(s.getKey(), s.getValue(), objects.get(s.getKey()).keySet()));
        }
        return out;
    }

    /** Snapshot data: {@code [count u32]} then each of {@link #events()} as {@code [length u32][codec record]}. */
    public byte[] encode() {
        List<byte[]> records = new ArrayList<>();
        int size = 4;
        for (ClusterEvent e : events()) {
            byte[] r = EventCodec.encode(Instant.EPOCH, SNAPSHOT_SOURCE, e);
            records.add(r);
            size += 4 + r.length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(records.size());
        records.forEach(r -> b.putInt(r.length).put(r));
        return b.array();
    }

    /**
     * The image a snapshot covering {@code offset} holds.
     *
     * @throws io.kproxy.events.EventDecodeException when a record is not one this build reads
     * @throws IllegalArgumentException when the data is not a snapshot (lengths do not add up)
     */
    public static TopicImage decode(long offset, byte[] data) {
        ByteBuffer b = ByteBuffer.wrap(data);
        TopicImage image = new TopicImage();
        if (b.remaining() < 4) {
            throw new IllegalArgumentException("snapshot of " + data.length + " bytes has no record count");
        }
        int count = b.getInt();
        for (int i = 0; i < count; i++) {
            if (b.remaining() < 4) {
                throw new IllegalArgumentException("snapshot ends before record " + i + " of " + count);
            }
            int len = b.getInt();
            if (len < 0 || len > b.remaining()) {
                throw new IllegalArgumentException("snapshot record " + i + " claims " + len + " bytes, " + b.remaining() + " remain");
            }
            image.apply(EventCodec.decode(0, data, b.position(), len).event());
            b.position(b.position() + len);
        }
        if (b.hasRemaining()) {
            throw new IllegalArgumentException("snapshot has " + b.remaining() + " bytes after its " + count + " records");
        }
        image.offset = offset;
        return image;
    }
}
