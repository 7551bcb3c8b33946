package io.kproxy.events;

import io.kproxy.events.EventDecodeException.Reason;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * The versioned binary codec of event-log records. Why this encoding (and not JSON or a generic
 * serializer) is explained in {@code events/README.md}; the layout of each event type is on its
 * page under {@code events/}.
 *
 * <p>Record layout, format version 1: {@code [version u8][type u8][epochSecond zigzag]
 * [nanos varint][source string][body]}. The offset is not part of the record: the log owns it
 * (a file position in the journal, a partition offset in Kafka).
 *
 * <p>Stateless and thread-safe; every method is pure and non-blocking. Decoding checks every
 * length against the bytes present and every value against its record's validation, and throws
 * {@link EventDecodeException} rather than return a wrong event. The format is canonical: an
 * event has exactly one encoding, and the decoder refuses any other byte form, so
 * {@code encode(decode(b))} equals {@code b} whenever decoding succeeds.
 */
public final class EventCodec {

    /** The format version this build writes. */
    public static final int CURRENT_VERSION = 1;

    private EventCodec() {
    }

    /**
     * Encodes one record.
     *
     * @throws io.kproxy.model.InvalidValueException when the event holds a value format v1
     *         cannot carry exactly: a string with an unpaired surrogate (not valid Unicode), or
     *         JSON nested more than 64 levels below the root object
     */
    public static byte[] encode(Instant recordedAt, String source, ClusterEvent event) {
        WireWriter w = new WireWriter();
        w.u8(CURRENT_VERSION);
        w.u8(event.type().tag());
        w.zigzag(recordedAt.getEpochSecond());
        w.varint(recordedAt.getNano());
        w.string(source);
        switch (event) {
            case ServiceObserved e -> {
                w.string(e.resourceVersion());
                w.json(e.object());
            }
            case ServiceDeleted e -> {
                w.string(e.service().namespace());
                w.string(e.service().name());
                w.string(e.resourceVersion());
                w.bool(e.finalStateUnknown());
            }
            case EndpointSliceObserved e -> {
                w.string(e.resourceVersion());
                w.json(e.object());
            }
            case EndpointSliceDeleted e -> {
                w.string(e.slice().namespace());
                w.string(e.slice().name());
                w.string(e.resourceVersion());
                w.bool(e.finalStateUnknown());
            }
            case NodeObserved e -> {
                w.string(e.resourceVersion());
                w.json(e.object());
            }
            case NodeDeleted e -> {
                w.string(e.node().value());
                w.string(e.resourceVersion());
                w.bool(e.finalStateUnknown());
            }
            case SourceSynced e -> {
                w.u8(e.kind().ordinal());
                w.string(e.resourceVersion());
            }
            case SourceRelisted e -> {
                w.u8(e.kind().ordinal());
                w.string(e.resourceVersion());
                writeSortedKeys(w, e.keysPresent());
            }
            case ConfigRecorded e -> {
                w.string(e.node().value());
                w.json(e.config());
            }
            case SyncApplied e -> {
                writeSyncHead(w, e.backend(), e.generation(), e.uptoOffset(), e.kind());
                w.string(e.rulesetHash());
                writeDuration(w, e.duration());
            }
            case SyncFailed e -> {
                writeSyncHead(w, e.backend(), e.generation(), e.uptoOffset(), e.kind());
                w.string(e.error());
                w.bool(e.retryable());
                writeDuration(w, e.duration());
            }
            case DataplanePinned e -> {
                w.varint(e.toOffset());
                w.string(e.reason());
            }
            case DataplaneUnpinned e -> w.string(e.reason());
            case ServiceCIDRObserved e -> {
                w.string(e.resourceVersion());
                w.json(e.object());
            }
            case ServiceCIDRDeleted e -> {
                w.string(e.name());
                w.string(e.resourceVersion());
                w.bool(e.finalStateUnknown());
            }
            case LocalAddressesObserved e -> {
                w.string(e.node().value());
                w.varint(e.addresses().size());
                for (IpAddress a : e.addresses()) {
                    w.string(a.toString());
                }
            }
        }
        return w.toByteArray();
    }

    /** Encodes the record of an envelope (its offset is not written). */
    public static byte[] encode(Envelope envelope) {
        return encode(envelope.recordedAt(), envelope.source(), envelope.event());
    }

    /** Decodes a whole array as one record at {@code offset}. */
    public static Envelope decode(long offset, byte[] bytes) {
        return decode(offset, bytes, 0, bytes.length);
    }

    /** Decodes {@code bytes[off, off+len)} as one record at {@code offset}. */
    public static Envelope decode(long offset, byte[] bytes, int off, int len) {
        WireReader r = new WireReader(bytes, off, len);
        EventType type = readHeader(r);
        Instant at = readInstant(r);
        String source = r.string();
        ClusterEvent event;
        try {
            event = readBody(r, type);
        } catch (IllegalArgumentException e) {
            // InvalidValueException and the records' own checks: sound bytes, invalid event.
            throw new EventDecodeException(Reason.INVALID_VALUE, r.position(), type + ": " + e.getMessage(), e);
        }
        if (!r.atEnd()) {
            throw r.error(Reason.TRAILING_BYTES, (len - r.position()) + " bytes after a complete " + type);
        }
        return new Envelope(offset, at, source, event);
    }

    /**
     * Decodes a batch of records on up to {@code parallelism} threads: the calling thread and up
     * to {@code parallelism - 1} tasks handed to {@code executor}, which take chunks of
     * contiguous records (at least 32) until none is left. For replays, where decoding is the
     * cost and the records are independent. The outcome is exactly that of decoding the records
     * one by one in order: the same envelopes, or the failure of the first record that does not
     * decode.
     *
     * <p>Blocks until every chunk is decoded, but never waits for a task that has not started (a
     * busy executor only means the caller decodes more itself); a task that starts late finds
     * nothing left and ends. When the executor refuses a task, the caller asks no more. An
     * interrupt does not stop decoding; the thread's interrupt status is kept. Pure apart from
     * the threads it borrows. The records' bytes must not change until this returns.
     *
     * @param records     the records, in the order wanted back; not null, no null element
     * @param executor    runs the helper tasks; e.g. a small pool kept for replays
     * @param parallelism threads at most, the caller included (1: all on the calling thread)
     * @return the envelopes in the order of {@code records}; immutable
     * @throws BatchDecodeException when a record cannot be decoded: which one, why (its
     *         {@link EventDecodeException}) and the envelopes before it
     */
    public static List<Envelope> decodeAll(List<RawRecord> records, Executor executor, int parallelism) {
        return BatchDecoder.decodeAll(records, executor, parallelism);
    }

    /** The event type of a record without decoding the rest; for counting and filtering. */
    public static EventType peekType(byte[] bytes, int off, int len) {
        return readHeader(new WireReader(bytes, off, len));
    }

    /** When a record was accepted, without decoding the rest; for the time index. */
    public static Instant peekRecordedAt(byte[] bytes, int off, int len) {
        WireReader r = new WireReader(bytes, off, len);
        readHeader(r);
        return readInstant(r);
    }

    // ---- reading ------------------------------------------------------------------------------

    private static EventType readHeader(WireReader r) {
        int version = r.u8();
        if (version != CURRENT_VERSION) {
            throw new EventDecodeException(Reason.UNKNOWN_VERSION, 0, "format version " + version + " (this build reads 1)");
        }
        int tag = r.u8();
        EventType type = EventType.byTag(tag);
        if (type == null) {
            throw new EventDecodeException(Reason.UNKNOWN_TYPE, 1, "event type tag " + tag);
        }
        return type;
    }

    private static Instant readInstant(WireReader r) {
        long seconds = r.zigzag();
        long nanos = r.varint();
        if (nanos < 0 || nanos > 999_999_999L) {
            throw r.error(Reason.MALFORMED, "nanoseconds " + nanos + " out of range");
        }
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (DateTimeException e) {
            throw new EventDecodeException(Reason.MALFORMED, r.position(), "time out of range: " + seconds + "s", e);
        }
    }

    private static ClusterEvent readBody(WireReader r, EventType type) {
        return switch (type) {
            case SERVICE_OBSERVED -> {
                String rv = r.string();
                int at = r.position();
                Json.Obj o = object(r);
                ServiceObserved e = new ServiceObserved(new ServiceRef(KubeObjects.namespace(o), KubeObjects.name(o)), rv, o);
                yield requireTrimmed(e, e.object(), o, at);
            }
            case SERVICE_DELETED -> new ServiceDeleted(new ServiceRef(r.string(), r.string()), r.string(), r.bool());
            case ENDPOINT_SLICE_OBSERVED -> {
                String rv = r.string();
                int at = r.position();
                Json.Obj o = object(r);
                EndpointSliceObserved e = new EndpointSliceObserved(new EndpointSliceRef(KubeObjects.namespace(o), KubeObjects.name(o)), rv, o);
                yield requireTrimmed(e, e.object(), o, at);
            }
            case ENDPOINT_SLICE_DELETED -> new EndpointSliceDeleted(new EndpointSliceRef(r.string(), r.string()), r.string(), r.bool());
            case NODE_OBSERVED -> {
                String rv = r.string();
                int at = r.position();
                Json.Obj o = object(r);
                NodeObserved e = new NodeObserved(new NodeName(KubeObjects.name(o)), rv, o);
                yield requireTrimmed(e, e.object(), o, at);
            }
            case NODE_DELETED -> new NodeDeleted(new NodeName(r.string()), r.string(), r.bool());
            case SOURCE_SYNCED -> new SourceSynced(kind(r), r.string());
            case SOURCE_RELISTED -> new SourceRelisted(kind(r), r.string(), readSortedKeys(r));
            case CONFIG_RECORDED -> new ConfigRecorded(new NodeName(r.string()), object(r));
            case SYNC_APPLIED -> {
                String backend = r.string();
                long generation = r.varint();
                long upto = r.zigzag();
                SyncKind kind = syncKind(r);
                yield new SyncApplied(backend, generation, upto, kind, r.string(), readDuration(r));
            }
            case SYNC_FAILED -> {
                String backend = r.string();
                long generation = r.varint();
                long upto = r.zigzag();
                SyncKind kind = syncKind(r);
                yield new SyncFailed(backend, generation, upto, kind, r.string(), r.bool(), readDuration(r));
            }
            case DATAPLANE_PINNED -> new DataplanePinned(r.varint(), r.string());
            case DATAPLANE_UNPINNED -> new DataplaneUnpinned(r.string());
            case SERVICE_CIDR_OBSERVED -> {
                String rv = r.string();
                int at = r.position();
                Json.Obj o = object(r);
                ServiceCIDRObserved e = new ServiceCIDRObserved(KubeObjects.name(o), rv, o);
                yield requireTrimmed(e, e.object(), o, at);
            }
            case SERVICE_CIDR_DELETED -> new ServiceCIDRDeleted(r.string(), r.string(), r.bool());
            case LOCAL_ADDRESSES_OBSERVED -> new LocalAddressesObserved(new NodeName(r.string()), readAddresses(r));
        };
    }

    /**
     * An observation's constructor trims managed fields and the last-applied annotation, so no
     * encoded observation holds them; a record that does would decode to an event whose
     * encoding differs from the record.
     */
    private static <E extends ClusterEvent> E requireTrimmed(E event, Json.Obj kept, Json.Obj read, int at) {
        if (kept != read) {
            throw new EventDecodeException(Reason.INVALID_VALUE, at,
                    event.type() + ": object holds metadata.managedFields or the last-applied annotation, which observations never keep");
        }
        return event;
    }

    private static Json.Obj object(WireReader r) {
        int at = r.position();
        if (r.json() instanceof Json.Obj o) {
            return o;
        }
        throw new EventDecodeException(Reason.MALFORMED, at, "expected a JSON object");
    }

    private static ResourceKind kind(WireReader r) {
        int k = r.u8();
        ResourceKind[] all = ResourceKind.values();
        if (k >= all.length) {
            throw r.error(Reason.MALFORMED, "resource kind " + k);
        }
        return all[k];
    }

    private static SyncKind syncKind(WireReader r) {
        int k = r.u8();
        SyncKind[] all = SyncKind.values();
        if (k >= all.length) {
            throw r.error(Reason.MALFORMED, "sync kind " + k);
        }
        return all[k];
    }

    private static Duration readDuration(WireReader r) {
        long seconds = r.varint();
        long nanos = r.varint();
        if (seconds < 0 || nanos < 0 || nanos > 999_999_999L) {
            throw r.error(Reason.MALFORMED, "duration out of range");
        }
        return Duration.ofSeconds(seconds, nanos);
    }

    /**
     * Keys sorted, each as (length shared with the previous key, the rest): relists repeat
     * namespaces. The shared length must be exactly what the writer computes (see
     * {@link #sharedPrefix}), so that a record has one encoding.
     */
    private static Set<String> readSortedKeys(WireReader r) {
        int n = r.count(2, "key count");
        Set<String> keys = HashSet.newHashSet(n);
        String prev = "";
        for (int i = 0; i < n; i++) {
            int at = r.position();
            long shared = r.varint();
            if (shared < 0 || shared > prev.length()) {
                throw new EventDecodeException(Reason.MALFORMED, at,
                        "shared prefix " + Long.toUnsignedString(shared) + " longer than the previous key");
            }
            String key = prev.substring(0, (int) shared) + r.string();
            if (i > 0 && key.compareTo(prev) <= 0) {
                throw new EventDecodeException(Reason.MALFORMED, at, "relist keys not strictly sorted at \"" + key + "\"");
            }
            if (shared != sharedPrefix(prev, key)) {
                throw new EventDecodeException(Reason.MALFORMED, at, "shared prefix " + shared + " is not the longest one");
            }
            keys.add(key);
            prev = key;
        }
        return keys;
    }

    /**
     * Addresses in their canonical text ({@link IpAddress#toString}), strictly sorted, so that a
     * record has one encoding: a non-canonical spelling or order is damage, not an event.
     */
    private static List<IpAddress> readAddresses(WireReader r) {
        int n = r.count(2, "address count");
        if (n > LocalAddressesObserved.MAX_ADDRESSES) {
            throw new EventDecodeException(Reason.MALFORMED, r.position(), "more than " + LocalAddressesObserved.MAX_ADDRESSES + " addresses");
        }
        List<IpAddress> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int at = r.position();
            String text = r.string();
            IpAddress a;
            try {
                a = IpAddress.parse(text);
            } catch (IllegalArgumentException e) {
                throw new EventDecodeException(Reason.MALFORMED, at, "not an IP address: \"" + text + "\"");
            }
            if (!a.toString().equals(text) || !out.isEmpty() && a.compareTo(out.getLast()) <= 0) {
                throw new EventDecodeException(Reason.MALFORMED, at, "address \"" + text + "\" not canonical or not strictly sorted");
            }
            out.add(a);
        }
        return out;
    }

    /** The common prefix of two keys in chars, never ending between the two halves of a surrogate pair. */
    private static int sharedPrefix(String prev, String key) {
        int shared = 0;
        int max = Math.min(prev.length(), key.length());
        while (shared < max && prev.charAt(shared) == key.charAt(shared)) {
            shared++;
        }
        if (shared > 0 && Character.isHighSurrogate(key.charAt(shared - 1))) {
            shared--; // the suffix would start with a lone low surrogate, which UTF-8 cannot carry
        }
        return shared;
    }

    // ---- writing ------------------------------------------------------------------------------

    private static void writeSyncHead(WireWriter w, String backend, long generation, long upto, SyncKind kind) {
        w.string(backend);
        w.varint(generation);
        w.zigzag(upto);
        w.u8(kind.ordinal());
    }

    private static void writeDuration(WireWriter w, Duration d) {
        w.varint(d.getSeconds());
        w.varint(d.getNano());
    }

    private static void writeSortedKeys(WireWriter w, Set<String> keys) {
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(null);
        w.varint(sorted.size());
        String prev = "";
        for (String k : sorted) {
            int shared = sharedPrefix(prev, k);
            w.varint(shared);
            w.string(k.substring(shared));
            prev = k;
        }
    }
}
