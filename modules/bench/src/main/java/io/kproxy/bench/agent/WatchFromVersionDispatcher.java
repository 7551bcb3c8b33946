package io.kproxy.bench.agent;

import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URI;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's CRUD mock API server with one difference that matters at scale: a watch that names a
 * {@code resourceVersion} (what an informer sends after its list) is not first sent every
 * matching object as {@code ADDED}. The mock sends them on every watch it opens, whatever the
 * version; a real API server sends only what changed after the version. At 10,000 Services that
 * was 20,000 extra watch events for the agent to decode and compare with what it had journaled,
 * on the two cores its first sync also needs (and the mock's own CPU besides): the benchmark
 * measured a cost no node pays. Watches without a version (or {@code resourceVersion=0}) keep the
 * mock's behaviour.
 *
 * <p>The mock keeps its watch listener class and its listener set private, so this reaches them by
 * reflection (the benchmark runs on the class path); it fails at construction, not mid-run, when
 * a fabric8 upgrade moves them. Thread-safe as the mock is.
 */
final class WatchFromVersionDispatcher extends KubernetesCrudDispatcher {

    private static final Logger LOG = LoggerFactory.getLogger(WatchFromVersionDispatcher.class);

    private final Set<Object> listeners;
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
