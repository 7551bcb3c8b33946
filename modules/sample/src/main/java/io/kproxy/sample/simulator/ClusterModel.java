package io.kproxy.sample.simulator;

import io.kproxy.events.EndpointSliceDeleted;
import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.NodeObserved;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.ServiceDeleted;
import io.kproxy.events.ServiceObserved;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.EndpointSliceRef;
import io.kproxy.model.Json;
import io.kproxy.model.NodeName;
import io.kproxy.model.ServiceRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The sample cluster as the API server holds it, and what the proxy's source has recorded of it.
 * Every change gets the next cluster-wide {@code resourceVersion} (as etcd's revision does) and,
 * while the API server is reachable, becomes an observation; during an outage changes only
 * accumulate, and {@link #relist} records what a relist then finds: the objects that changed and
 * a {@code SourceRelisted} barrier per kind whose keys leave out what was deleted meanwhile.
 * Mutable; confined to the generator's thread; deterministic for a given {@link Random}.
 */
final class ClusterModel {

    static final String NODE = "demo-node";
    static final String SOURCE = "source/kube";
    static final int NODES = 12;
    private static final String NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789";

    /** An object as the API server holds it: its resourceVersion and body. */
    private record Stored(long resourceVersion, Json.Obj object) {
    }

    private final Random random;
    private final List<TimedEvent> out = new ArrayList<>();
    private final Map<String, Workload> workloads = new LinkedHashMap<>();
    private final TreeMap<String, Stored> services = new TreeMap<>();
    private final TreeMap<String, Stored> slices = new TreeMap<>();
    private final Map<String, Long> recordedServices = new LinkedHashMap<>();
    private final Map<String, Long> recordedSlices = new LinkedHashMap<>();
    private final BitSet[] usedHosts = new BitSet[NODES + 1];
    private final int[] nextHost = new int[NODES + 1];
    private long resourceVersion = 184_000;
    private boolean connected = true;

    ClusterModel(Random random) {
        this.random = random;
        for (int i = 1; i <= NODES; i++) {
            usedHosts[i] = new BitSet(256);
            nextHost[i] = 20;
        }
    }

    /** The events recorded so far, in time order. */
    List<TimedEvent> events() {
        return out;
    }

    Map<String, Workload> workloads() {
        return workloads;
    }

    Random random() {
        return random;
    }

    boolean connected() {
        return connected;
    }

    /** The API server becomes unreachable: changes are no longer observed. */
    void disconnect() {
        connected = false;
    }

    static String nodeName(int index) {
        return index == 1 ? NODE : String.format("node-%02d", index);
    }

    static String zoneOf(String node) {
        if (node.equals(NODE)) {
            return "zone-a";
        }
        int i = Integer.parseInt(node.substring(node.length() - 2));
        return "zone-" + (char) ('a' + i % 3);
    }

    /** A name suffix as Kubernetes' {@code generateName} makes them. */
    String suffix(int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
        }
        return b.toString();
    }

    /** A new pod of {@code w} on a random node (or on {@code nodeIndex} when positive), starting. */
    Pod newPod(Workload w, String template, int nodeIndex) {
        int node = nodeIndex > 0 ? nodeIndex : 1 + random.nextInt(NODES);
        int host = allocateHost(node);
        String name = w.def().name() + "-" + template + "-" + suffix(5);
        return Pod.starting(name, nodeName(node), "10.0." + node + "." + host, "fd00:10:0:" + node + "::" + host);
    }

    /** A pod at a fixed address (the demo's pods, which really answer). */
    Pod fixedPod(Workload w, String template, int nodeIndex, int host) {
        usedHosts[nodeIndex].set(host);
        String name = w.def().name() + "-" + template + "-" + suffix(5);
        return Pod.starting(name, nodeName(nodeIndex), "10.0." + nodeIndex + "." + host, "fd00:10:0:" + nodeIndex + "::" + host).asReady();
    }

    private int allocateHost(int node) {
        for (int tries = 0; tries < 240; tries++) {
            int h = nextHost[node];
            nextHost[node] = h >= 249 ? 20 : h + 1;
            if (!usedHosts[node].get(h)) {
                usedHosts[node].set(h);
                return h;
            }
        }
        throw new IllegalStateException("node " + node + " has no free pod address");
    }

    void release(Pod p) {
        int node = p.node().equals(NODE) ? 1 : Integer.parseInt(p.node().substring(p.node().length() - 2));
        int host = Integer.parseInt(p.ipv4().substring(p.ipv4().lastIndexOf('.') + 1));
        if (host >= 20) {
            usedHosts[node].clear(host);
        }
    }

    void add(Workload w) {
        workloads.put(w.def().key(), w);
    }

    /** Records the creation or an edit of {@code w}'s Service. */
    void serviceChanged(Workload w, Instant at) {
        long rv = ++resourceVersion;
        Json.Obj obj = ObjectJson.service(w, rv);
        services.put(w.def().key(), new Stored(rv, obj));
        if (connected) {
            emitService(w.def().key(), rv, obj, at);
        }
    }

    /** Records {@code w}'s EndpointSlices as its pods are now (the IPv6 one 2 ms after the IPv4 one). */
    void slicesChanged(Workload w, Instant at) {
        Instant t = at;
        for (String name : w.slices()) {
            long rv = ++resourceVersion;
            String family = name.equals(w.sliceV6()) ? "IPv6" : "IPv4";
            Json.Obj obj = ObjectJson.slice(w, name, family, rv, at);
            String key = w.def().namespace() + "/" + name;
            slices.put(key, new Stored(rv, obj));
            if (connected) {
                emitSlice(key, rv, obj, t);
            }
            t = t.plusMillis(2);
        }
    }

    /** Deletes an EndpointSlice of {@code namespace}. */
    void sliceDeleted(String namespace, String name, Instant at) {
        String key = namespace + "/" + name;
        Stored s = slices.remove(key);
        if (s != null && connected) {
            recordedSlices.remove(key);
            out.add(new TimedEvent(at, SOURCE, new EndpointSliceDeleted(new EndpointSliceRef(namespace, name),
                    Long.toString(s.resourceVersion()), false)));
        }
    }

    /** Deletes {@code w}'s Service and slices. */
    void workloadDeleted(Workload w, Instant at) {
        workloads.remove(w.def().key());
        Instant t = at;
        for (String name : w.slices()) {
            sliceDeleted(w.def().namespace(), name, t);
            t = t.plusMillis(2);
        }
        Stored s = services.remove(w.def().key());
        if (s != null && connected) {
            recordedServices.remove(w.def().key());
            out.add(new TimedEvent(t, SOURCE, new ServiceDeleted(ServiceRef.parse(w.def().key()), Long.toString(s.resourceVersion()), false)));
        }
        w.pods().forEach(this::release);
    }

    /** This node's Node object, observed. */
    void nodeObserved(Instant at) {
        long rv = ++resourceVersion;
        Json.Obj obj = ObjectJson.node(NODE, "192.168.0.2", "fd00:192::2", "10.0.1.0/24", "fd00:10:0:1::/64", rv, at);
        if (connected) {
            out.add(new TimedEvent(at, SOURCE, new NodeObserved(new NodeName(NODE), Long.toString(rv), obj)));
        }
    }

    void synced(ResourceKind kind, Instant at) {
        out.add(new TimedEvent(at, SOURCE, new SourceSynced(kind, Long.toString(resourceVersion))));
    }

    void record(TimedEvent e) {
        out.add(e);
    }

    /**
     * The API server is back and the watches expired (410 Gone): both kinds are relisted. Objects
     * changed or created meanwhile are observed, then a barrier lists every key present, so that
     * the fold drops what vanished. Returns when it ends.
     */
    Instant relist(Instant at, Duration step) {
        connected = true;
        Instant t = at;
        for (Map.Entry<String, Stored> e : services.entrySet()) {
            if (!Long.valueOf(e.getValue().resourceVersion()).equals(recordedServices.get(e.getKey()))) {
                emitService(e.getKey(), e.getValue().resourceVersion(), e.getValue().object(), t);
                t = t.plus(step);
            }
        }
        out.add(new TimedEvent(t, SOURCE, new SourceRelisted(ResourceKind.SERVICE, Long.toString(resourceVersion), services.keySet())));
        recordedServices.keySet().retainAll(services.keySet());
        t = t.plus(step);
        for (Map.Entry<String, Stored> e : slices.entrySet()) {
            if (!Long.valueOf(e.getValue().resourceVersion()).equals(recordedSlices.get(e.getKey()))) {
                emitSlice(e.getKey(), e.getValue().resourceVersion(), e.getValue().object(), t);
                t = t.plus(step);
            }
        }
        out.add(new TimedEvent(t, SOURCE, new SourceRelisted(ResourceKind.ENDPOINT_SLICE, Long.toString(resourceVersion), slices.keySet())));
        recordedSlices.keySet().retainAll(slices.keySet());
        return t;
    }

    private void emitService(String key, long rv, Json.Obj obj, Instant at) {
        recordedServices.put(key, rv);
        out.add(new TimedEvent(at, SOURCE, new ServiceObserved(ServiceRef.parse(key), Long.toString(rv), obj)));
    }

    private void emitSlice(String key, long rv, Json.Obj obj, Instant at) {
        recordedSlices.put(key, rv);
        int slash = key.indexOf('/');
        out.add(new TimedEvent(at, SOURCE,
                new EndpointSliceObserved(new EndpointSliceRef(key.substring(0, slash), key.substring(slash + 1)), Long.toString(rv), obj)));
    }

    /** The events so far as one list, stable-sorted by time. */
    List<TimedEvent> sortedEvents() {
        List<TimedEvent> copy = new ArrayList<>(out);
        copy.sort((a, b) -> a.at().compareTo(b.at()));
        return List.copyOf(copy);
    }
}
