package io.kproxy.bench.agent;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's CRUD mock API server with two differences that matter at scale. First, a watch that names a
 * {@code resourceVersion} (what an informer sends after its list) is not first sent every
 * matching object as {@code ADDED}. The mock sends them on every watch it opens, whatever the
 * version; a real API server sends only what changed after the version. At 10,000 Services that
 * was 20,000 extra watch events for the agent to decode and compare with what it had journaled,
 * on the two cores its first sync also needs (and the mock's own CPU besides): the benchmark
 * measured a cost no node pays. Watches without a version (or {@code resourceVersion=0}) keep the
 * mock's behaviour.
 *
 * <p>Second, the mock finds the object an update or patch names by matching the request against
 * every stored object in turn ({@code KubernetesCrudDispatcher.findResource}): at 10,000 Services
 * (20,001 objects) about 12 ms of the mock's CPU per request, which every benchmark change paid
 * before the agent could see it; an API server reads one key. Here that lookup goes through an
 * index of the stored objects by resource, namespace and name, kept as the mock stores them
 * ({@link #processEvent}) and checked against the store on every use; a missing or stale entry
 * falls back to the mock's own search, so a create, which looks for an object that is not there,
 * searches everything (the simulator loads its objects without creates:
 * {@link PagedListDispatcher#store}). Lists are the mock's own ({@link PagedListDispatcher}
 * serves them in pages).
 *
 * <p>The mock keeps its watch listener class and its listener set private, so this reaches them by
 * reflection (the benchmark runs on the class path); it fails at construction, not mid-run, when
 * a fabric8 upgrade moves them. Thread-safe as the mock is.
 */
class WatchFromVersionDispatcher extends KubernetesCrudDispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(WatchFromVersionDispatcher.class);

    private final Set<Object> listeners;
    /** Resource (plural), namespace and name of a stored object: its key in {@code map}. */
    private final Map<List<String>, AttributeSet> byName = new ConcurrentHashMap<>();
    private final KubernetesAttributesExtractor extractor;
    private final AtomicLong indexed = new AtomicLong();
    private final Method resourceName;
    private final Constructor<?> newListener;

    @SuppressWarnings("unchecked")
    WatchFromVersionDispatcher() {
        try {
            Field field = KubernetesCrudDispatcher.class.getDeclaredField("watchEventListeners");
            field.setAccessible(true);
            listeners = (Set<Object>) field.get(this);
            resourceName = KubernetesCrudDispatcher.class.getDeclaredMethod("fetchResourceNameFromWatchRequestPath", String.class);
            resourceName.setAccessible(true);
            Class<?> listener = Class.forName("io.fabric8.kubernetes.client.server.mock.WatchEventsListener");
            newListener = listener.getDeclaredConstructor(Context.class, AttributeSet.class, Set.class, Logger.class, Consumer.class);
            newListener.setAccessible(true);
            extractor = (KubernetesAttributesExtractor) attributeExtractor;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("fabric8's mock changed its watch internals: " + e, e);
        }
    }

    @Override
    public MockResponse handleWatch(String path) {
        if (!fromVersion(path)) {
            return super.handleWatch(path);
        }
        try {
            AttributeSet attributes = attributeExtractor.fromPath(path);
            String name = (String) resourceName.invoke(this, path);
            if (name != null) {
                attributes = attributes.add(new Attribute("name", name));
            }
            Consumer<Object> noInitialEvents = opened -> {
            };
            Object listener = newListener.newInstance(context, attributes, listeners, LOG, noInitialEvents);
            listeners.add(listener);
            return new MockResponse().withWebSocketUpgrade((WebSocketListener) listener);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot open a watch on " + path + ": " + e, e);
        }
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        List<String> name = objectName(query);
        if (name == null) {
            return super.findResource(query);
        }
        AttributeSet key = byName.get(name);
        String stored = key == null ? null : map.get(key);
        if (stored != null && key.matches(query)) {
            indexed.incrementAndGet();
            return Map.entry(key, stored);
        }
        Map.Entry<AttributeSet, String> found = super.findResource(query);
        if (found != null) {
            byName.put(name, found.getKey());
        }
        return found;
    }

    /** Stores as the mock does, then tells {@link #stored} under which key (the mock's write lock is held). */
    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes, GenericKubernetesResource resource,
            String json) {
        super.processEvent(path, pathAttributes, oldAttributes, resource, json);
        AttributeSet key = null;
        if (json != null) {
            // The key the mock gave it, computed the same way: from the object, with the request
            // path's attributes when the object alone does not say its resource.
            key = resource != null ? extractor.extract(resource) : extractor.fromResource(json);
            if (!key.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                key = AttributeSet.merge(pathAttributes, key);
            }
        }
        stored(oldAttributes, key, json);
    }

    /**
     * After each write, under the mock's write lock: {@code old} is the key the write replaced or
     * deleted (null for a create), {@code key} the key {@code json} is now stored under
     * ({@code key} and {@code json} are null for a delete). Indexes the object by name; a key the
     * store does not hold is not indexed.
     */
    void stored(AttributeSet old, AttributeSet key, String json) {
        List<String> name = key == null ? null : objectName(key);
        if (name != null && json.equals(map.get(key))) {
            byName.put(name, key);
        }
    }

    /** Whether a watch is open. */
    boolean watching() {
        return !listeners.isEmpty();
    }

    /** How many lookups the index answered (the rest were the mock's own search). */
    long indexedLookups() {
        return indexed.get();
    }

    /** Resource, namespace ("" when cluster-scoped) and name of a set that names one object, else null. */
    static List<String> objectName(AttributeSet set) {
        String plural = single(set.getAttribute(KubernetesAttributesExtractor.PLURAL));
        String name = single(set.getAttribute(KubernetesAttributesExtractor.NAME));
        if (plural == null || name == null) {
            return null;
        }
        String namespace = set.containsKey(KubernetesAttributesExtractor.NAMESPACE)
                ? single(set.getAttribute(KubernetesAttributesExtractor.NAMESPACE)) : "";
        return namespace == null ? null : List.of(plural, namespace, name);
    }

    private static String single(Attribute a) {
        return a != null && a.getType() == AttributeType.WITH && a.getValues().size() == 1 ? a.getValues().getFirst().toString() : null;
    }

    /** Whether the watch asks to start after a version (a non-empty {@code resourceVersion} other than 0). */
    static boolean fromVersion(String path) {
        String query = URI.create(path).getRawQuery();
        if (query == null) {
            return false;
        }
        for (String param : query.split("&")) {
            if (param.startsWith("resourceVersion=")) {
                String version = param.substring("resourceVersion=".length());
                return !version.isEmpty() && !version.equals("0");
            }
        }
        return false;
    }
}
