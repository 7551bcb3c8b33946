package io.kproxy.source.kube;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.ConfigRecorded;
import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.LocalAddressesObserved;
import io.kproxy.events.NodeDeleted;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRDeleted;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.events.SyncApplied;
import io.kproxy.events.SyncFailed;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.Json;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link KnownObjects} folded from a whole event log: observations put, deletes remove,
 * {@code SourceRelisted} keeps only the keys it lists, {@code SourceSynced} marks the kind
 * synced; every other event is ignored. Used by tests and when the log has no snapshot yet;
 * the application otherwise derives {@link KnownObjects} from the engine's folded state.
 *
 * <p>The fold ({@link #fold}) is pure. {@link #read} blocks while it reads the log. The result
 * is immutable and thread-safe.
 */
public final class LogScan {

    private static final int PAGE = 1024;

    private final Map<ResourceKind, Map<String, ObjectFingerprint>> objects = new EnumMap<>(ResourceKind.class);
    private final Set<ResourceKind> synced = EnumSet.noneOf(ResourceKind.class);

    private LogScan() {
        for (ResourceKind k : ResourceKind.values()) {
            objects.put(k, new HashMap<>());
        }
    }

    /**
     * Reads {@code log} from offset 0 to its current end (blocking).
     *
     * @throws IllegalStateException when retention removed the log's beginning: a scan would
     *                               miss objects, so the caller must use the folded state
     */
    public static KnownObjects read(EventLog log) {
        if (log.firstOffset() > 0) {
            throw new IllegalStateException("the log starts at offset " + log.firstOffset()
                    + " (retention removed its beginning): build KnownObjects from the folded state instead");
        }
        LogScan scan = new LogScan();
        long end = log.nextOffset();
        long next = 0;
        while (next < end) {
            List<Envelope> page = log.read(next, (int) Math.min(PAGE, end - next));
            if (page.isEmpty()) {
                break;
            }
            for (Envelope e : page) {
                scan.apply(e.event());
                next = e.offset() + 1;
            }
        }
        return scan.result();
    }

    /** The known objects after {@code events}, in order. */
    public static KnownObjects fold(Iterable<? extends ClusterEvent> events) {
        LogScan scan = new LogScan();
        for (ClusterEvent e : events) {
            scan.apply(e);
        }
        return scan.result();
    }

    private void apply(ClusterEvent event) {
        switch (event) {
            case ServiceObserved o -> put(ResourceKind.SERVICE, o.service().toString(), o.object());
            case ServiceDeleted d -> remove(ResourceKind.SERVICE, d.service().toString());
            case EndpointSliceObserved o -> put(ResourceKind.ENDPOINT_SLICE, o.slice().toString(), o.object());
            case EndpointSliceDeleted d -> remove(ResourceKind.ENDPOINT_SLICE, d.slice().toString());
            case NodeObserved o -> put(ResourceKind.NODE, o.node().value(), o.object());
            case NodeDeleted d -> remove(ResourceKind.NODE, d.node().value());
            case ServiceCIDRObserved o -> put(ResourceKind.SERVICE_CIDR, o.name(), o.object());
            case ServiceCIDRDeleted d -> remove(ResourceKind.SERVICE_CIDR, d.name());
            case SourceSynced s -> synced.add(s.kind());
            case SourceRelisted r -> objects.get(r.kind()).keySet().retainAll(r.keysPresent());
            case ConfigRecorded _ -> { }
            case SyncApplied _ -> { }
            case SyncFailed _ -> { }
            case DataplanePinned _ -> { }
            case DataplaneUnpinned _ -> { }
            case LocalAddressesObserved _ -> { }
        }
    }

    private void put(ResourceKind kind, String key, Json.Obj object) {
        objects.get(kind).put(key, ObjectFingerprint.of(object));
    }

    private void remove(ResourceKind kind, String key) {
        objects.get(kind).remove(key);
    }

    private KnownObjects result() {
        return KnownObjects.of(objects, synced);
    }
}
