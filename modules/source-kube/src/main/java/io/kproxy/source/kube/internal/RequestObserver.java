package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kproxy.events.ResourceKind;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the client's requests to count watch reconnects (fabric8 reconnects inside its watch
 * manager and says nothing) and to remember the last API server error. A watch request that
 * follows a list of the same kind opens a watch; one that follows another watch request resumes
 * it, and counts as a reconnect. Thread-safe; never blocks.
 */
public final class RequestObserver implements Interceptor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestObserver.class);

    private final SourceStats stats;
    private final Map<ResourceKind, AtomicBoolean> listedSinceWatch = new EnumMap<>(ResourceKind.class);

    public RequestObserver(SourceStats stats) {
        this.stats = stats;
        for (ResourceKind k : ResourceKind.values()) {
            listedSinceWatch.put(k, new AtomicBoolean());
        }
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        ResourceKind kind = kindOf(request.uri().getPath());
        if (kind == null) {
            return;
        }
        String query = request.uri().getRawQuery();
        boolean watch = query != null && query.contains("watch=true");
        if (!watch) {
            listedSinceWatch.get(kind).set(true);
        } else if (!listedSinceWatch.get(kind).getAndSet(false)) {
            stats.reconnected();
            LOG.info("decision=resume-watch kind={} query={}", kind, query);
        }
    }

    @Override
    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
        stats.error("cannot reach the API server (" + request.uri().getPath() + "): " + failure);
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        stats.error("API server answered HTTP " + response.code() + " to " + response.request().uri().getPath());
        return CompletableFuture.completedFuture(false);
    }

    /** The kind a request path is about, or null for any other request. */
    static ResourceKind kindOf(String path) {
        if (path == null) {
            return null;
        }
        if (path.endsWith("/services")) {
            return ResourceKind.SERVICE;
        }
        if (path.endsWith("/endpointslices")) {
            return ResourceKind.ENDPOINT_SLICE;
        }
        if (path.endsWith("/nodes")) {
            return ResourceKind.NODE;
        }
        return null;
    }
}
