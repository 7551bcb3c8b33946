package io.kproxy.source.kube;

import io.kproxy.events.ResourceKind;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What the event log already holds, per resource kind: the key of every object whose latest
 * record is an observation, with that observation's {@link ObjectFingerprint}, and whether the
 * kind has ever synced. The source reads it once, on start, to append only what differs from
 * the API server ("restart without noise").
 *
 * <p>The application builds it from the engine's folded state (the log's beginning may have
 * been removed by retention); {@link LogScan} builds it by reading a whole log, for tests and
 * for a log that has no snapshot yet. Keys are {@code namespace/name}, or {@code name} for
 * Nodes. Implementations are immutable or effectively immutable once handed to the source;
 * methods never return null and do not block.
 */
public interface KnownObjects {

    /** Key to fingerprint of every object of {@code kind} the log holds (unmodifiable), but the {@link #deferred} ones. */
    Map<String, ObjectFingerprint> objects(ResourceKind kind);

    /**
     * The keys of the objects of {@code kind} the log holds whose fingerprints are read through
     * {@link #reader()} only when the source first needs them (an event for the key, or a list,
     * which reads them all first); disjoint from {@link #objects}. None by default.
     */
    default Set<String> deferred(ResourceKind kind) {
        return Set.of();
    }

    /** Reads the {@link #deferred} fingerprints. */
    default FingerprintReader reader() {
        return FingerprintReader.NONE;
    }

    /** Whether the log holds a {@code SourceSynced} barrier for {@code kind}. */
    boolean synced(ResourceKind kind);

    /**
     * The {@code metadata.uid} of the {@code default/kubernetes} Service as the log holds it, ""
     * when it holds none. The API server creates that Service with the cluster and keeps it for
     * the cluster's life, so a restart resumes watches only where the API server's own has the
     * same uid (docs/operations.md, "Restart").
     */
    default String apiServiceUid() {
        return "";
    }

    /** Where the previous process's watches stopped ({@link ResumePoint#NONE} by default: every kind is listed). */
    default ResumePoint resumePoint() {
        return ResumePoint.NONE;
    }

    /** These known objects with {@code uid} as the {@code default/kubernetes} Service's and {@code point} to resume at. */
    default KnownObjects resumingAt(String uid, ResumePoint point) {
        KnownObjects base = this;
        return new KnownObjects() {
            @Override
            public Map<String, ObjectFingerprint> objects(ResourceKind kind) {
                return base.objects(kind);
            }

            @Override
            public Set<String> deferred(ResourceKind kind) {
                return base.deferred(kind);
            }

            @Override
            public FingerprintReader reader() {
                return base.reader();
            }

            @Override
            public boolean synced(ResourceKind kind) {
                return base.synced(kind);
            }

            @Override
            public String apiServiceUid() {
                return uid;
            }

            @Override
            public ResumePoint resumePoint() {
                return point;
            }
        };
    }

    /** A log with nothing in it: the first start of a proxy. */
    static KnownObjects empty() {
        return of(Map.of(), Set.of());
    }

    /** Known objects from plain maps (copied). */
    static KnownObjects of(Map<ResourceKind, Map<String, ObjectFingerprint>> objects, Set<ResourceKind> synced) {
        return of(objects, Map.of(), FingerprintReader.NONE, synced);
    }

    /** Known objects from plain maps (copied), those of {@code deferred} read through {@code reader} when first needed. */
    static KnownObjects of(Map<ResourceKind, Map<String, ObjectFingerprint>> objects, Map<ResourceKind, Set<String>> deferred,
                           FingerprintReader reader, Set<ResourceKind> synced) {
        Map<ResourceKind, Map<String, ObjectFingerprint>> copy = new java.util.EnumMap<>(ResourceKind.class);
        objects.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
        Map<ResourceKind, Set<String>> later = new java.util.EnumMap<>(ResourceKind.class);
        deferred.forEach((k, v) -> later.put(k, Set.copyOf(v)));
        Set<ResourceKind> syncedCopy = synced.isEmpty() ? EnumSet.noneOf(ResourceKind.class) : EnumSet.copyOf(synced);
        return new KnownObjects() {
            @Override
            public Map<String, ObjectFingerprint> objects(ResourceKind kind) {
                return copy.getOrDefault(kind, Map.of());
            }

            @Override
            public Set<String> deferred(ResourceKind kind) {
                return later.getOrDefault(kind, Set.of());
            }

            @Override
            public FingerprintReader reader() {
                return reader;
            }

            @Override
            public boolean synced(ResourceKind kind) {
                return syncedCopy.contains(kind);
            }
        };
    }
}
