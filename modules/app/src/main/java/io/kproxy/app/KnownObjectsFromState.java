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

    static KnownObjects read(EventLog log, ClusterState cluster, ResumePoint resume) {
        String apiServiceUid = "";
        TreeMap<Long, Wanted> wanted = new TreeMap<>();
        for (ServiceRef svc : cluster.services()) {
            cluster.serviceOrigin(svc).ifPresent(o -> wanted.put(o.offset(), new Wanted(ResourceKind.SERVICE, svc.toString())));
        }
        for (Map.Entry<EndpointSliceRef, Origin> s : cluster.sliceOrigins().entrySet()) {
            wanted.put(s.getValue().offset(), new Wanted(ResourceKind.ENDPOINT_SLICE, s.getKey().toString()));
        }
        cluster.nodeOrigin().ifPresent(o -> wanted.put(o.offset(), new Wanted(ResourceKind.NODE, cluster.nodeName())));
        for (Map.Entry<String, Origin> c : cluster.serviceCidrOrigins().entrySet()) {
            wanted.put(c.getValue().offset(), new Wanted(ResourceKind.SERVICE_CIDR, c.getKey()));
        }

        Map<ResourceKind, Map<String, ObjectFingerprint>> objects = new EnumMap<>(ResourceKind.class);
        for (ResourceKind k : ResourceKind.values()) {
            objects.put(k, new HashMap<>());
        }
        int unreadable = 0;
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
                page = index(LogPages.beforeLoss(log, offset, PAGE));
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
        LOG.info("decision=known-objects services={} slices={} node={} service_cidrs={} unreadable={}",
                objects.get(ResourceKind.SERVICE).size(), objects.get(ResourceKind.ENDPOINT_SLICE).size(),
                objects.get(ResourceKind.NODE).size(), objects.get(ResourceKind.SERVICE_CIDR).size(), unreadable);
        return KnownObjects.of(objects, synced).resumingAt(apiServiceUid, resume);
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
