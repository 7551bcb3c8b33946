package io.kproxy.bench.agent;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * {@link WatchFromVersionDispatcher} that also loads and lists at 100,000 Services as an API
 * server does. The mock answers every list by testing each stored object against the query,
 * joining all matches into one string and formatting it again ({@code KubernetesCrudDispatcher}
 * and {@code KubernetesResponseComposer}), and ignores {@code limit}: at 100,000 Services, in
 * the 1 GB the harness gave it, the agent's three lists took it 4.8-8.2 s (126 MB in three
 * responses, each built in several humongous copies). Here
 * <ul>
 *   <li>lists come from an index of the stored objects per resource, in the API server's key
 *       order (namespace, then name), in pages of {@code limit} with {@code continue} tokens
 *       over a snapshot at the first page's resourceVersion ({@link ListPages}), the objects'
 *       stored JSON written as it is; a list without {@code limit} is one page, as before;</li>
 *   <li>{@link #store} puts an object straight into the store with the metadata the mock's
 *       create gives it (uid, creationTimestamp, resourceVersion, generation 1; fabric8's
 *       {@code PostHandler}), serialised once, where a create through {@code dispatch} parsed and
 *       wrote each object five times (26 s of CPU for 100,000 Services, 10.5 s now).</li>
 * </ul>
 * Every write reaches {@link #stored} (the mock's create, update, patch and delete through
 * {@code processEvent}, and {@link #store}), which keeps the index equal to the store; an object
 * the index cannot name (no resource or name) turns it off and lists fall back to the mock's
 * own. Watches, named gets and writes are the parent's. The mock's read-write lock (private, reached by reflection at
 * construction) orders lists against writes, so a snapshot is consistent with its version.
 * Thread-safe as the mock is.
 */
final class PagedListDispatcher extends WatchFromVersionDispatcher {

    /** The API server's compaction interval: older continue tokens answer 410 Gone. */
    private static final Duration TOKEN_AGE = Duration.ofMinutes(5);

    /**
     * Per resource (plural): namespace, name, API group and version of each stored object → its
     * key and JSON. The sorted maps are written under the mock's write lock and read under its
     * read lock.
     */
    private final Map<String, NavigableMap<String, Stored>> byResource = new ConcurrentHashMap<>();
    private final ListPages pages = new ListPages(64, TOKEN_AGE, System::nanoTime);
    private final ReadWriteLock lock;
    private final AtomicLong resourceVersion;
    private volatile boolean indexComplete = true;

    private record Stored(AttributeSet key, String json) {
    }

    PagedListDispatcher() {
        try {
            Field l = KubernetesCrudDispatcher.class.getDeclaredField("lock");
            l.setAccessible(true);
            lock = (ReadWriteLock) l.get(this);
            Field v = KubernetesCrudDispatcher.class.getDeclaredField("resourceVersion");
            v.setAccessible(true);
            resourceVersion = (AtomicLong) v.get(this);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("fabric8's mock changed its store internals: " + e, e);
        }
    }

    /**
     * Stores {@code object} as the mock's create would (its metadata is set here) and returns the
     * resourceVersion it got. For loading before anyone lists or watches: it sends no watch event,
     * so it refuses while a watch is open; it does not check that the name is new; and it takes
     * the version before the lock, so a list during a load may name a version whose object is not
     * in it yet.
     */
    String store(HasMetadata object) {
        if (watching()) {
            throw new IllegalStateException("store() sends no watch events; a watch is open");
        }
        long version = requestResourceVersion();
        var meta = object.getMetadata();
        meta.setUid(UUID.randomUUID().toString());
        meta.setCreationTimestamp(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_INSTANT));
        meta.setResourceVersion(Long.toString(version));
        meta.setGeneration(1L);
        String json = Serialization.asJson(object);
        AttributeSet key = keyOf(object);
        Lock write = lock.writeLock();
        write.lock();
        try {
            map.put(key, json);
            stored(null, key, json);
        } finally {
            write.unlock();
        }
        return meta.getResourceVersion();
    }

    @Override
    void stored(AttributeSet old, AttributeSet key, String json) {
        super.stored(old, key, json);
        if (old != null) {
            String k = indexKey(old);
            NavigableMap<String, Stored> objects = byResource.get(plural(old));
            if (k != null && objects != null) {
                objects.remove(k);
            }
        }
        if (key == null) {
            return;
        }
        String k = indexKey(key);
        if (k == null) {
            indexComplete = false;
            return;
        }
        byResource.computeIfAbsent(plural(key), p -> new TreeMap<>()).put(k, new Stored(key, json));
    }

    @Override
    public void reset() {
        Lock write = lock.writeLock();
        write.lock();
        try {
            super.reset();
            byResource.clear();
            indexComplete = true;
        } finally {
            write.unlock();
        }
    }

    @Override
    public MockResponse handleGet(String path) {
        URI uri = URI.create(path);
        String query = Optional.ofNullable(uri.getRawQuery()).orElse("");
        AttributeSet attributes = attributeExtractor.fromPath(path);
        NavigableMap<String, Stored> objects = byResource.get(String.valueOf(plural(attributes)));
        if (query.contains("watch=true") || attributes.containsKey(KubernetesAttributesExtractor.NAME) || objects == null
                || !indexComplete) {
            return super.handleGet(path);
        }
        int limit = parameter(query, "limit").map(Integer::parseInt).orElse(0);
        Optional<String> token = parameter(query, "continue");
        if (token.isPresent()) {
            return pages.next(token.get(), limit).map(p -> new MockResponse().setResponseCode(200).setBody(p.body()))
                    .orElseGet(PagedListDispatcher::expired);
        }
        List<String> items = new ArrayList<>();
        long version;
        Lock read = lock.readLock();
        read.lock();
        try {
            for (Stored s : objects.values()) {
                if (s.key().matches(attributes)) {
                    items.add(s.json());
                }
            }
            version = resourceVersion.get();
        } finally {
            read.unlock();
        }
        return new MockResponse().setResponseCode(200).setBody(pages.first(items, version, limit).body());
    }

    /**
     * The key the mock's extractor gives a typed object ({@code KubernetesAttributesExtractor.extract}:
     * API group and version, name and namespace twice each, one attribute per label, the plural),
     * built in one step: the extractor copies its attribute map once per attribute and derives the
     * plural from the kind with regular expressions every time (0.8 of the store's 1.4 s per 60,000
     * objects, warm). {@code PagedListDispatcherTest} holds the two equal.
     */
    static AttributeSet keyOf(HasMetadata object) {
        List<Attribute> attributes = new ArrayList<>();
        String apiVersion = object.getApiVersion();
        if (apiVersion != null && !apiVersion.isEmpty()) {
            int slash = apiVersion.indexOf('/');
            if (slash >= 0) {
                attributes.add(new Attribute(KubernetesAttributesExtractor.API, apiVersion.substring(0, slash)));
            }
            attributes.add(new Attribute(KubernetesAttributesExtractor.VERSION, apiVersion.substring(slash + 1)));
        }
        var meta = object.getMetadata();
        if (meta.getName() != null && !meta.getName().isEmpty()) {
            attributes.add(new Attribute(KubernetesAttributesExtractor.NAME, meta.getName()));
            attributes.add(new Attribute(KubernetesAttributesExtractor.METADATA_NAME, meta.getName()));
        }
        if (meta.getNamespace() != null && !meta.getNamespace().isEmpty()) {
            attributes.add(new Attribute(KubernetesAttributesExtractor.NAMESPACE, meta.getNamespace()));
            attributes.add(new Attribute(KubernetesAttributesExtractor.METADATA_NAMESPACE, meta.getNamespace()));
        }
        if (meta.getLabels() != null) {
            meta.getLabels().forEach((k, v) -> attributes.add(new Attribute("labels:" + k, v)));
        }
        String plural = PLURALS.computeIfAbsent(object.getClass(), HasMetadata::getPlural);
        attributes.add(new Attribute(KubernetesAttributesExtractor.PLURAL, plural));
        return new AttributeSet(attributes);
    }

    private static final Map<Class<?>, String> PLURALS = new ConcurrentHashMap<>();

    /** How many paged lists wait for their next page. */
    int openLists() {
        return pages.openSnapshots();
    }

    /** Namespace, name, API group and version: the API server's key order within a resource; null without a name. */
    private static String indexKey(AttributeSet key) {
        List<String> name = objectName(key);
        if (name == null) {
            return null;
        }
        return name.get(1) + "/" + name.get(2) + "/" + value(key, KubernetesAttributesExtractor.API) + "/"
                + value(key, KubernetesAttributesExtractor.VERSION);
    }

    private static String plural(AttributeSet key) {
        return value(key, KubernetesAttributesExtractor.PLURAL);
    }

    private static String value(AttributeSet key, String attribute) {
        var a = key.getAttribute(attribute);
        return a == null || a.getValues().isEmpty() ? "" : a.getValues().getFirst().toString();
    }

    private static Optional<String> parameter(String rawQuery, String name) {
        for (String p : rawQuery.split("&")) {
            if (p.startsWith(name + "=") && p.length() > name.length() + 1) {
                return Optional.of(URLDecoder.decode(p.substring(name.length() + 1), StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    /** The API server's answer to an expired continue token (etcd3/store.go, reason Expired). */
    private static MockResponse expired() {
        return new MockResponse().setResponseCode(410).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                + "\"status\":\"Failure\",\"message\":\"The provided continue parameter is too old to display a consistent list result."
                + " You can start a new list without the continue parameter.\",\"reason\":\"Expired\",\"code\":410}");
    }
}
