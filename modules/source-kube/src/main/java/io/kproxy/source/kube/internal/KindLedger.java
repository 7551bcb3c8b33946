package io.kproxy.source.kube.internal;

import io.kproxy.events.ClusterEvent;
import io.kproxy.events.KubeObjects;
import io.kproxy.events.ResourceKind;
import io.kproxy.events.SourceRelisted;
import io.kproxy.events.SourceSynced;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import io.kproxy.source.kube.FingerprintReader;
import io.kproxy.source.kube.KnownObjects;
import io.kproxy.source.kube.ObjectFingerprint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For one resource kind: what the log holds (key to fingerprint, as of the events emitted so
 * far) and the rules that turn informer callbacks into events. No fabric8 types: the informer
 * adapter converts objects to {@link Json} first, which keeps these rules unit-testable.
 *
 * <p>Informers come in generations: the first one on start, and a new one each time the
 * watchdog forces a relist. A generation's first list is compared with what the log holds:
 * only new or changed objects are emitted, keys the list lacks become deletes with
 * {@code finalStateUnknown=true}, and a barrier follows ({@link SourceSynced} the first time a
 * kind ever syncs; {@link SourceRelisted} after a forced relist, or after a restart that found
 * differences; nothing after a restart that found none). A relist fabric8 runs inside one
 * generation (410 Gone, a failed watch) ends with {@link SourceRelisted}. Callbacks of a
 * replaced generation are ignored: the next generation's list recovers whatever they carried.
 *
 * <p>A restart may instead resume the kind's watch at the position the previous process stopped
 * at ({@link #resumeGeneration}): no list, so no barrier and no vanished keys; the events the
 * watch replays are compared with what the log holds like any other. The ledger keeps that
 * position ({@link #position()}): the resourceVersion of the last watch event, bookmark of a
 * resumed watch or list end whose event, if any, was queued, so that every event of the kind up to it is in the log once the
 * queue has drained. A list's items do not move it (they come in key order, not in version
 * order), and an event the queue refused (the source stopping) loses it.
 *
 * <p>Thread-safe: every method holds the ledger's lock, including while {@link EventSink#emit}
 * blocks on a full queue, which keeps each kind's events in callback order.
 */
public final class KindLedger {

    private static final Logger LOG = LoggerFactory.getLogger(KindLedger.class);

    /** Why a generation started. */
    public enum Origin { START, WATCHDOG, RESUME }

    /** One informer's lifetime; opaque to callers. */
    public static final class Generation {
        private final Origin origin;
        private Set<String> seen = new HashSet<>();
        private int changes;   // events emitted by the current list cycle
        private boolean listed;

        private Generation(Origin origin) {
            this.origin = origin;
        }
    }

    private final ResourceKind kind;
    private final EventSink sink;
    private final SourceStats stats;
    // the fingerprint of every object the log holds; DEFERRED until read through the reader
    private final Map<String, ObjectFingerprint> current;
    private final FingerprintReader reader;
    private int deferred;
    private final CompletableFuture<Void> firstListDurable = new CompletableFuture<>();
    private boolean everSynced;
    private Generation generation;
    private volatile boolean listing;   // the current generation's, readable without the lock
    private String position = "";
    private boolean positionLost;

    public KindLedger(ResourceKind kind, Map<String, ObjectFingerprint> known, boolean knownSynced, EventSink sink,
                      SourceStats stats) {
        this(kind, known, Set.of(), FingerprintReader.NONE, knownSynced, sink, stats);
    }

    /**
     * With {@code deferredKeys}, objects the log holds whose fingerprints {@code reader} reads
     * when they are first needed: for an event of the key, or all of them before a list
     * ({@link KnownObjects#deferred}).
     */
    public KindLedger(ResourceKind kind, Map<String, ObjectFingerprint> known, Set<String> deferredKeys, FingerprintReader reader,
                      boolean knownSynced, EventSink sink, SourceStats stats) {
        this.kind = kind;
        this.sink = sink;
        this.stats = stats;
        this.current = new HashMap<>(known);
        for (String key : deferredKeys) {
            if (current.putIfAbsent(key, DEFERRED) == null) {
                deferred++;
            }
        }
        this.reader = reader;
        this.everSynced = knownSynced;
    }

    private void forget(String key) {
        if (current.remove(key) == DEFERRED) {
            deferred--;
        }
    }

    /** Stands for a fingerprint not read yet; compared by identity. */
    private static final ObjectFingerprint DEFERRED = new ObjectFingerprint("", 0, 0);

    /** The fingerprint the log holds for {@code key}, read now if it was deferred; null when none. */
    private ObjectFingerprint known(String key) {
        ObjectFingerprint fp = current.get(key);
        if (fp == DEFERRED) {
            read(List.of(key));
            fp = current.get(key);
        }
        return fp;
    }

    /** Reads every deferred fingerprint (before a list compares every object), in one pass over the log. */
    private void readDeferred() {
        if (deferred == 0) {
            return;
        }
        List<String> keys = new ArrayList<>(deferred);
        current.forEach((k, v) -> {
            if (v == DEFERRED) {
                keys.add(k);
            }
        });
        long start = System.nanoTime();
        read(keys);
        LOG.info("decision=read-deferred-fingerprints kind={} objects={} millis={}", kind, keys.size(), (System.nanoTime() - start) / 1_000_000);
    }

    /** Reads the fingerprints of {@code keys} (all deferred); a key whose record is unreadable is forgotten, as an unreadable known object is. */
    private void read(List<String> keys) {
        Map<String, ObjectFingerprint> read;
        try {
            read = reader.read(kind, keys);
        } catch (RuntimeException e) {
            // the log could not be read: these objects are recorded once more when seen, which is noise, never a wrong state
            LOG.warn("decision=forget-deferred-fingerprints kind={} objects={} reason=\"{}\"", kind, keys.size(),
                    String.valueOf(e.getMessage()).replace('"', '\''));
            read = Map.of();
        }
        for (String key : keys) {
            ObjectFingerprint fp = read.get(key);
            if (fp == null) {
                forget(key);
            } else if (current.put(key, fp) == DEFERRED) {
                deferred--;
            }
        }
    }

    public ResourceKind kind() {
        return kind;
    }

    /** Starts a new generation; callbacks of the previous one are ignored from now on. */
    public synchronized Generation newGeneration(Origin origin) {
        readDeferred(); // the list compares every object with what the log holds
        generation = new Generation(origin);
        listing = true;
        return generation;
    }

    /**
     * Starts a generation that resumes a watch at {@code resourceVersion} instead of listing: the
     * kind counts as listed, and its position starts there. Callbacks of the previous generation
     * are ignored from now on.
     */
    public synchronized Generation resumeGeneration(String resourceVersion) {
        generation = new Generation(Origin.RESUME);
        generation.listed = true;
        generation.seen = null;
        listing = false;
        position = resourceVersion;
        return generation;
    }

    /** Whether {@code g} is still the current generation. */
    public synchronized boolean current(Generation g) {
        return g == generation;
    }

    /**
     * The resumed watch of {@code g} is open: the kind's first list counts as durable once what
     * was queued before is (there is nothing to compare; the watch replays what changed).
     */
    public synchronized void resumed(Generation g) throws InterruptedException {
        if (g != generation) {
            return;
        }
        LOG.info("decision=resumed kind={} resource_version={} objects={}", kind, position, current.size());
        sink.afterDurable(() -> firstListDurable.complete(null));
    }

    /**
     * Where a later process may resume this kind's watch: every event of the kind up to this
     * resourceVersion has been queued (or was already in the log); "" when unknown (nothing
     * watched yet, or an event was refused while the source stopped). Meaningful as a resume
     * point only once the queue has drained.
     */
    public synchronized String position() {
        return positionLost ? "" : position;
    }

    /** Whether the current generation is between the start of a list and its end. Never blocks. */
    public boolean listing() {
        return listing;
    }

    /** Completes once this kind's first list in this process is durable in the log. */
    public CompletableFuture<Void> firstListDurable() {
        return firstListDurable;
    }

    /** A copy of what the log holds for this kind, as of the events emitted so far. */
    public synchronized Map<String, ObjectFingerprint> snapshot() {
        return Map.copyOf(current);
    }

    public synchronized void beforeList(Generation g, String lastResourceVersion) {
        if (g != generation) {
            return;
        }
        listing = true;
        if (g.listed) {
            g.changes = 0;
            LOG.info("decision=relist kind={} from_resource_version={} reason=informer-restarted-list", kind, lastResourceVersion);
        }
    }

    /** An add or update: emitted unless the log already holds exactly this content. */
    public synchronized void observed(Generation g, Json.Obj object) throws InterruptedException {
        if (g != generation) {
            return;
        }
        stats.eventReceived();
        Json.Obj trimmed = KubeObjects.trim(object);
        String key = Observations.key(kind, trimmed);
        if (g.seen != null) {
            g.seen.add(key);
        }
        ObjectFingerprint fp = ObjectFingerprint.of(trimmed);
        if (fp.equals(known(key))) {
            advance(fp.resourceVersion(), true);
            return;
        }
        ClusterEvent event;
        try {
            event = Observations.observed(kind, trimmed);
        } catch (InvalidValueException e) {
            skip(key, e);
            advance(fp.resourceVersion(), true);
            return;
        }
        boolean queued = sink.emit(event);
        if (queued) {
            current.put(key, fp);
            g.changes++;
        }
        advance(fp.resourceVersion(), queued);
    }

    /** A watch event at {@code rv} was handled ({@code queued}: nothing of it was refused). Lists' items do not count. */
    private void advance(String rv, boolean queued) {
        if (!queued) {
            positionLost = true;
        } else if (!listing && !rv.isEmpty()) {
            position = rv;
        }
    }

    /** A delete; {@code lastState} is the final object, or the last one seen when unknown. */
    public synchronized void deleted(Generation g, Json.Obj lastState, boolean finalStateUnknown) throws InterruptedException {
        if (g != generation) {
            return;
        }
        stats.eventReceived();
        String key = Observations.key(kind, lastState);
        String rv = KubeObjects.resourceVersion(lastState);
        advance(rv, emitDelete(g, key, rv, finalStateUnknown));
    }

    /**
     * A bookmark of a resumed watch: every event of the kind up to {@code resourceVersion} has
     * been sent, so handled (callbacks are serial); the position moves there although nothing
     * changed. fabric8's informers keep their bookmarks to themselves.
     */
    public synchronized void bookmarked(Generation g, String resourceVersion) {
        if (g != generation || resourceVersion == null) {
            return;
        }
        advance(Observations.resourceVersionOrUnknown(resourceVersion), true);
    }

    /** A list finished at {@code resourceVersion} ("" or null when the server gave none). */
    public synchronized void listed(Generation g, String resourceVersion) throws InterruptedException {
        if (g != generation) {
            return;
        }
        stats.eventReceived();
        String rv = knownVersion("list", kind.toString(), resourceVersion == null ? "" : resourceVersion);
        listing = false;
        if (!g.listed) {
            g.listed = true;
            List<String> vanished = new ArrayList<>();
            for (String key : current.keySet()) {
                if (!g.seen.contains(key)) {
                    vanished.add(key);
                }
            }
            g.seen = null;
            vanished.sort(null);
            for (String key : vanished) {
                if (!emitDelete(g, key, current.get(key).resourceVersion(), true)) {
                    positionLost = true;
                }
            }
            firstListBarrier(g, rv);
        } else {
            stats.relisted(false);
            emitRelisted(rv);
        }
        advance(rv, true);
        LOG.info("decision=listed kind={} resource_version={} objects={} origin={} changes={}", kind, rv, current.size(),
                g.origin, g.changes);
    }

    private void firstListBarrier(Generation g, String rv) throws InterruptedException {
        switch (g.origin) {
            case START -> {
                if (!everSynced) {
                    barrier(new SourceSynced(kind, rv));
                    everSynced = true;
                } else if (g.changes > 0) {
                    emitRelisted(rv);
                }
            }
            case WATCHDOG -> {
                stats.relisted(true);
                if (everSynced) {
                    emitRelisted(rv);
                } else {
                    barrier(new SourceSynced(kind, rv));
                    everSynced = true;
                }
            }
            case RESUME -> throw new IllegalStateException("a resumed watch has no list");
        }
        sink.afterDurable(() -> firstListDurable.complete(null));
    }

    private void emitRelisted(String rv) throws InterruptedException {
        barrier(new SourceRelisted(kind, rv, Set.copyOf(current.keySet())));
    }

    private void barrier(ClusterEvent event) throws InterruptedException {
        if (!sink.emit(event)) {
            positionLost = true;
        }
    }

    /** @return false when the queue refused the delete (the source is stopping) */
    private boolean emitDelete(Generation g, String key, String rv, boolean finalStateUnknown) throws InterruptedException {
        ClusterEvent event;
        try {
            event = Observations.deleted(kind, key, knownVersion("delete", key, rv), finalStateUnknown);
        } catch (InvalidValueException e) {
            forget(key);
            skip(key, e);
            return true;
        }
        if (sink.emit(event)) {
            forget(key);
            g.changes++;
            return true;
        }
        return false;
    }

    /**
     * A list's or a delete's resourceVersion, or "" (unknown) when it is not an opaque token: the
     * barrier and the delete are recorded anyway (a lost barrier would keep the node from ever
     * syncing, a lost delete would keep stale rules), with the bad value reported, not kept.
     */
    private String knownVersion(String what, String key, String rv) {
        String known = Observations.resourceVersionOrUnknown(rv);
        if (!known.equals(rv)) {
            stats.error("refused the resourceVersion of " + what + " " + kind + " " + key + ": not an opaque token; recorded as unknown");
            LOG.warn("decision=refuse-resource-version kind={} key={} of={} resource_version={}", kind, key, what, rv);
        }
        return known;
    }

    private void skip(String key, InvalidValueException e) {
        stats.skipped();
        stats.error("skipped " + kind + " " + key + ": " + e.getMessage());
        LOG.warn("decision=skip-object kind={} key={} reason={}", kind, key, e.getMessage());
    }
}
