package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The informer's item store reduced to what the source needs from it: each object's key and
 * {@code resourceVersion}. The source keeps no fabric8 objects: every callback is turned into
 * an event at once, the {@link KindLedger} keeps a fingerprint per key, and the fold keeps the
 * parsed state. fabric8's default store would hold a second copy of every object of the cluster
 * besides, a heap cost that grows with the cluster.
 *
 * <p>What the informer reads back from a store is therefore an object carrying only namespace,
 * name and {@code resourceVersion}: enough for fabric8 to tell adds from updates (it compares
 * versions) and for the ledger to record a delete whose final state is unknown (it records key
 * and version). Because the store is not a full state, fabric8 hands over the objects of the
 * initial list page by page instead of holding all of them until the list ends
 * ({@code ProcessorStore}, {@code isFullState}), so journaling overlaps listing.
 *
 * <p>Thread-safe (the informer writes from one thread at a time; reads may be concurrent).
 *
 * @param <T> the kind
 */
final class KeyVersionStore<T extends HasMetadata> implements ItemStore<T> {

    private final ConcurrentHashMap<String, String> versions = new ConcurrentHashMap<>();
    private final Supplier<T> empty;

    /** @param empty a new, empty object of the kind (its metadata is set on the copies handed back) */
    KeyVersionStore(Supplier<T> empty) {
        this.empty = empty;
    }

    @Override
    public String getKey(T obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public T put(String key, T obj) {
        String rv = obj.getMetadata() == null ? null : obj.getMetadata().getResourceVersion();
        return restore(key, versions.put(key, rv == null ? "" : rv));
    }

    @Override
    public T remove(String key) {
        return restore(key, versions.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return versions.keySet().stream();
    }

    @Override
    public Stream<T> values() {
        return versions.entrySet().stream().map(e -> restore(e.getKey(), e.getValue()));
    }

    @Override
    public int size() {
        return versions.size();
    }

    @Override
    public T get(String key) {
        return restore(key, versions.get(key));
    }

    @Override
    public boolean isFullState() {
        return false;
    }

    /** An object with only the key's namespace and name and {@code rv}; null when {@code rv} is. */
    private T restore(String key, String rv) {
        if (rv == null) {
            return null;
        }
        int slash = key.indexOf('/');
        ObjectMeta meta = new ObjectMeta();
        if (slash >= 0) {
            meta.setNamespace(key.substring(0, slash));
        }
        meta.setName(key.substring(slash + 1));
        meta.setResourceVersion(rv.isEmpty() ? null : rv);
        T obj = empty.get();
        obj.setMetadata(meta);
        return obj;
    }
}
