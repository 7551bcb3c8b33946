package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kproxy.events.ResourceKind;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the client's requests: to count watch reconnects (fabric8 reconnects inside its watch
 * manager and says nothing), to tell {@link Reachability} about every attempt, answer and
 * connection failure, to remember the last API server error (without credentials), and to expire
 * a cached token when the API server answers 401, so that the next request reads a rotated one
 * (client-go's bearer round tripper does the same). A watch request that follows a list of the
 * same kind opens a watch; one that follows another watch request resumes it, and counts as a
 * reconnect (DEBUG when routine, INFO after an outage, as client-go logs watch restarts at V(4)).
 * Thread-safe; never blocks.
 */
public final class RequestObserver implements Interceptor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestObserver.class);

    private final SourceStats stats;
    private final Reachability reachability;
    private final Optional<TokenSource> tokens;
    private final Map<ResourceKind, AtomicBoolean> listedSinceWatch = new EnumMap<>(ResourceKind.class);

    public RequestObserver(SourceStats stats, Reachability reachability, Optional<TokenSource> tokens) {
        this.stats = stats;
        this.reachability = reachability;
        this.tokens = tokens;
        for (ResourceKind k : ResourceKind.values()) {
            listedSinceWatch.put(k, new AtomicBoolean());
        }
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        reachability.attempt();
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
            if (reachability.troubled()) {
                LOG.info("decision=resume-watch kind={} reason=after-outage", kind);
            } else {
                LOG.debug("decision=resume-watch kind={} reason=watch-closed query={}", kind, query);
            }
        }
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
        reachability.answered();
    }

    @Override
    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
        ApiFailure f = ApiFailure.of(failure);
        reachability.failed(f);
        stats.error("cannot reach the API server " + reachability.address() + " (" + f.reason() + "): " + f.detail());
    }

    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        reachability.answered();
        if (response.code() == 401) {
            tokens.ifPresent(TokenSource::expire);
        }
        if (response.code() == 404 && kindOf(response.request().uri().getPath()) == ResourceKind.SERVICE_CIDR) {
            // An API server without ServiceCIDRs (before Kubernetes 1.33): expected, and said
            // once by KindWatch; not an error to show until it goes away.
            return CompletableFuture.completedFuture(false);
        }
        stats.error("API server " + reachability.address() + " answered HTTP " + response.code() + " to "
                + response.request().uri().getPath());
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
        if (path.endsWith("/servicecidrs")) {
            return ResourceKind.SERVICE_CIDR;
        }
        return null;
    }
}
