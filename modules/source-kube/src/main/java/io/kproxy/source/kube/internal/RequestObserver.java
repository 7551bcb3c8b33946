package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.kproxy.events.ResourceKind;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
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
 * Every watch request's {@code timeoutSeconds} is set here, from {@link WatchLiveness} (fabric8
 * asks for a fixed 10 min; client-go for 5-10 min at random), and a watch answered with a plain
 * HTTP 410 is told to it. Thread-safe; never blocks.
 */
public final class RequestObserver implements Interceptor {

    private static final Logger LOG = LoggerFactory.getLogger(RequestObserver.class);

    private final SourceStats stats;
    private final Reachability reachability;
    private final Optional<TokenSource> tokens;
    private final Map<ResourceKind, AtomicBoolean> listedSinceWatch = new EnumMap<>(ResourceKind.class);
    private final WatchLiveness liveness;

    public RequestObserver(SourceStats stats, Reachability reachability, Optional<TokenSource> tokens, WatchLiveness liveness) {
        this.stats = stats;
        this.liveness = liveness;
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
        if (watch) {
            builder.uri(withTimeout(request.uri(), liveness.watchRequested(kind)));
        }
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
        goneIfWatch(response);
    }

    /** A watch answered with a plain HTTP 410: the watchdog relists the kind after client-go's backoff. */
    private void goneIfWatch(HttpResponse<?> response) {
        if (response.code() != 410) {
            return;
        }
        ResourceKind kind = kindOf(response.request().uri().getPath());
        String query = response.request().uri().getRawQuery();
        if (kind != null && query != null && query.contains("watch=true")) {
            liveness.gone(kind);
        }
    }

    /** {@code uri} with its {@code timeoutSeconds} query parameter set to {@code seconds}. */
    static URI withTimeout(URI uri, long seconds) {
        String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
        String kept = Arrays.stream(query.split("&")).filter(p -> !p.isEmpty() && !p.startsWith("timeoutSeconds="))
                .collect(Collectors.joining("&"));
        String q = (kept.isEmpty() ? "" : kept + "&") + "timeoutSeconds=" + seconds;
        String s = uri.toString();
        int mark = s.indexOf('?');
        return URI.create((mark < 0 ? s : s.substring(0, mark)) + "?" + q);
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
        goneIfWatch(response);
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
