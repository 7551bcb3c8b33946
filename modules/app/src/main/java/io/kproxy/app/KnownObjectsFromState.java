package io.kproxy.app;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceCIDRObserved;
import io.kproxy.events.ServiceObserved;
import io.kproxy.journal.LogPages;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import io.kproxy.model.ServiceRef;
import io.kproxy.source.kube.FingerprintReader;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.ObjectFingerprint;
import io.kproxy.source.kube.ResumePoint;
import io.kproxy.state.ClusterState;
import io.kproxy.state.Origin;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the log already holds, for the source's restart without noise, taken from the engine's
 * folded state (which survives retention through snapshots): every Service, every EndpointSlice,
 * this node's Node and every ServiceCIDR, each fingerprinted from the record that last set it (the fold keeps its
 * offset). Those records are read in one forward sweep, in pages, so that the objects of one
 * initial list (consecutive records) cost one read per page. An object whose record retention
 * removed, or one the fold does not keep (a slice without the {@code kubernetes.io/service-name}
 * label), is left out: the source then records it once more, which is noise, never a wrong
 * state. The {@code default/kubernetes} Service's uid comes along, and with it the point where
 * the previous run's watches stopped, if any: the source resumes them there when the API server
 * is the same (docs/operations.md, "Restart"). Blocks on the log's I/O.
 */
final class KnownObjectsFromState {

    private static final Logger LOG = LoggerFactory.getLogger(KnownObjectsFromState.class);
    private static final int PAGE = 256;

    private record Wanted(ResourceKind kind, String key) {
    }

    private KnownObjectsFromState() {
    }

    /** The {@code default/kubernetes} Service's key: its uid names the cluster. */
    private static final String API_SERVICE = "default/kubernetes";

    /**
     * The known objects. With a resume point the fingerprints of Services and EndpointSlices
     * are deferred: a resumed watch replays only what changed after the log's last record, so
     * they serve a later list alone, and the source reads them then, or one at a time for an
     * event of that object ({@link KnownObjects#deferred}); at 100,000 Services reading and
     * fingerprinting them all took 7-13 s of the restart, beside the plan's render. Only the
     * {@code default/kubernetes} Service's record is read at once, for its uid.
     */
    static KnownObjects read(EventLog log, ClusterState cluster, ResumePoint resume) {
        boolean defer = !resume.equals(ResumePoint.NONE);
        Map<ResourceKind, Map<String, Long>> offsets = new EnumMap<>(ResourceKind.class);
        for (ResourceKind k : ResourceKind.values()) {
            offsets.put(k, new HashMap<>());
        }
        for (ServiceRef svc : cluster.services()) {
            cluster.serviceOrigin(svc).ifPresent(o -> offsets.get(ResourceKind.SERVICE).put(svc.toString(), o.offset()));
        }
        for (Map.Entry<EndpointSliceRef, Origin> s : cluster.sliceOrigins().entrySet()) {
            offsets.get(ResourceKind.ENDPOINT_SLICE).put(s.getKey().toString(), s.getValue().offset());
        }
        cluster.nodeOrigin().ifPresent(o -> offsets.get(ResourceKind.NODE).put(cluster.nodeName(), o.offset()));
        for (Map.Entry<String, Origin> c : cluster.serviceCidrOrigins().entrySet()) {
            offsets.get(ResourceKind.SERVICE_CIDR).put(c.getKey(), c.getValue().offset());
        }

        Map<ResourceKind, Set<String>> deferred = new EnumMap<>(ResourceKind.class);
        TreeMap<Long, Wanted> wanted = new TreeMap<>();
        for (ResourceKind k : ResourceKind.values()) {
            Map<String, Long> of = offsets.get(k);
            if (defer && (k == ResourceKind.SERVICE || k == ResourceKind.ENDPOINT_SLICE)) {
                Long api = k == ResourceKind.SERVICE ? of.remove(API_SERVICE) : null; // read now, not deferred
                if (api != null) {
                    wanted.put(api, new Wanted(k, API_SERVICE));
                }
                deferred.put(k, of.keySet()); // KnownObjects.of copies it before the reader removes anything
            } else {
                of.forEach((key, offset) -> wanted.put(offset, new Wanted(k, key)));
            }
        }
        Read read = read(log, wanted);
        Set<ResourceKind> synced = EnumSet.noneOf(ResourceKind.class);
        if (cluster.servicesSynced()) {
            synced.add(ResourceKind.SERVICE);
        }
        if (cluster.endpointSlicesSynced()) {
            synced.add(ResourceKind.ENDPOINT_SLICE);
        }
        if (cluster.nodeSynced()) {
            synced.add(ResourceKind.NODE);
        }
        if (cluster.serviceCidrsSynced()) {
            synced.add(ResourceKind.SERVICE_CIDR);
        }
        Map<ResourceKind, Map<String, ObjectFingerprint>> objects = read.objects();
        LOG.info("decision=known-objects services={} slices={} node={} service_cidrs={} unreadable={} deferred={}",
                objects.get(ResourceKind.SERVICE).size() + deferred.getOrDefault(ResourceKind.SERVICE, Set.of()).size(),
                objects.get(ResourceKind.ENDPOINT_SLICE).size() + deferred.getOrDefault(ResourceKind.ENDPOINT_SLICE, Set.of()).size(),
                objects.get(ResourceKind.NODE).size(), objects.get(ResourceKind.SERVICE_CIDR).size(), read.unreadable(),
                defer ? "services,slices" : "none");
        // called by each kind's ledger under its lock: each touches its own kind's map only
        Map<String, Long> services = offsets.get(ResourceKind.SERVICE);
        Map<String, Long> slices = offsets.get(ResourceKind.ENDPOINT_SLICE);
        FingerprintReader reader = !defer ? FingerprintReader.NONE : (kind, keys) -> {
            Map<String, Long> of = switch (kind) {
                case SERVICE -> services;
                case ENDPOINT_SLICE -> slices;
                default -> new HashMap<>(); // never deferred
            };
            TreeMap<Long, Wanted> these = new TreeMap<>();
            for (String key : keys) {
                Long offset = of.remove(key); // each is read once (the ledger keeps what it read); the map empties as they are
                if (offset != null) {
                    these.put(offset, new Wanted(kind, key));
                }
            }
            return read(log, these).objects().get(kind);
        };
        return KnownObjects.of(objects, deferred, reader, synced).resumingAt(read.apiServiceUid(), resume);
    }

    /** What one sweep read: the fingerprints by kind, the {@code default/kubernetes} uid if it was among them, how many were unreadable. */
    private record Read(Map<ResourceKind, Map<String, ObjectFingerprint>> objects, String apiServiceUid, int unreadable) {
    }

    /**
     * Reads the records at {@code wanted}'s offsets in one forward sweep, in pages (one record
     * alone when only one is wanted), and fingerprints their objects.
     */
    private static Read read(EventLog log, TreeMap<Long, Wanted> wanted) {
        Map<ResourceKind, Map<String, ObjectFingerprint>> objects = new EnumMap<>(ResourceKind.class);
        for (ResourceKind k : ResourceKind.values()) {
            objects.put(k, new HashMap<>());
        }
        String apiServiceUid = "";
        int unreadable = 0;
        int pageSize = wanted.size() == 1 ? 1 : PAGE;
        long first = log.firstOffset();
        Map<Long, Envelope> page = Map.of();
        for (Map.Entry<Long, Wanted> w : wanted.entrySet()) {
            long offset = w.getKey();
            if (offset < first) {
                unreadable++;
                continue;
            }
            if (!page.containsKey(offset)) {
                // stops before records the journal lost: the state was folded without them, so no origin is
                // among them (docs/operations.md, "Damaged journal")
                page = index(LogPages.beforeLoss(log, offset, pageSize));
            }
            Envelope e = page.get(offset);
            Json.Obj object = e == null ? null : observed(e);
            if (object != null) {
                objects.get(w.getValue().kind()).put(w.getValue().key(), ObjectFingerprint.of(object));
                if (w.getValue().kind() == ResourceKind.SERVICE && w.getValue().key().equals(API_SERVICE)) {
                    apiServiceUid = object.object("metadata").string("uid").orElse("");
                }
            }
        }
        return new Read(objects, apiServiceUid, unreadable);
    }

    /** The object of an observation; null for any other record (a Node's origin may be its NodeDeleted). */
    private static Json.Obj observed(Envelope e) {
        if (e.event() instanceof ServiceObserved s) {
            return s.object();
        }
        if (e.event() instanceof EndpointSliceObserved s) {
            return s.object();
        }
        if (e.event() instanceof ServiceCIDRObserved c) {
            return c.object();
        }
        return e.event() instanceof NodeObserved n ? n.object() : null;
    }

    private static Map<Long, Envelope> index(List<Envelope> records) {
        Map<Long, Envelope> out = new HashMap<>(records.size() * 2);
        records.forEach(r -> out.put(r.offset(), r));
        return out;
    }
}
