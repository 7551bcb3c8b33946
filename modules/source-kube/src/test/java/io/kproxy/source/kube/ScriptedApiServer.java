package io.kproxy.source.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test-only: fabric8's CRUD mock API server behind a dispatcher that can do what CRUD mode
 * cannot: page lists ({@code limit}/{@code continue}), answer the next watch with a 410
 * {@code ERROR} event, answer watches with a plain HTTP 410, hide events from open watches
 * ("mute"), close open watches ("sever"), and stop and restart on the same port with the same
 * objects, and require a bearer token (answering 401 to anonymous requests and to other tokens,
 * as an API server with anonymous authentication off does), and answer 404 for a resource it
 * does not serve. Resources are named by their plural ({@code services}, {@code endpointslices},
 * {@code nodes}, {@code servicecidrs}). Thread-safe.
 */
final class ScriptedApiServer implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String PAGE_TOKEN = "kproxy-test-page:";

    private final KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
    private final Script script = new Script();
    private final Map<String, Boolean> plainGone = new ConcurrentHashMap<>();
    private final Map<String, Boolean> goneNext = new ConcurrentHashMap<>();
    private final Map<String, Boolean> goneAsBody = new ConcurrentHashMap<>();
    private final Map<String, Boolean> unserved = new ConcurrentHashMap<>();
    private final Map<String, Boolean> forbidden = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> notFound = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> pagedLists = new ConcurrentHashMap<>();
    private final List<TrackedWatch> watches = new CopyOnWriteArrayList<>();
    private final Map<String, String> lastWatchQuery = new ConcurrentHashMap<>();
    private final Map<String, List<String>> lists = new ConcurrentHashMap<>();
    private volatile String requiredToken = "";
    private KubernetesMockServer server;
    private int port;
    private KubernetesClient client;

    private ScriptedApiServer() {
    }

    /** A running server on a free loopback port. */
    public static ScriptedApiServer start() {
        ScriptedApiServer s = new ScriptedApiServer();
        s.listen(0);
        return s;
    }

    private synchronized void listen(int onPort) {
        MockWebServer web = new MockWebServer();
        server = new KubernetesMockServer(web, new HashMap<>(), false);
        web.setDispatcher(script);
        server.start(InetAddress.getLoopbackAddress(), onPort);
        port = server.getPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /**
     * From now on, every request must carry {@code Authorization: Bearer token}; others get 401.
     * Call before {@link #client()}, which then authenticates with it.
     */
    public void requireToken(String token) {
        requiredToken = token;
    }

    /** A client for the test's own changes (it survives restarts). */
    public synchronized KubernetesClient client() {
        if (client == null) {
            Config config = Config.empty();
            config.setMasterUrl(url());
            if (!requiredToken.isEmpty()) {
                config.setOauthToken(requiredToken);
            }
            client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
        }
        return client;
    }

    /** Stops serving (open watches break); the objects are kept. */
    public synchronized void stop() {
        server.shutdown();
    }

    /** Serves again on the same port, with the same objects and resource versions. */
    public synchronized void restart() {
        listen(port);
    }

    /** The query of the last watch request on {@code resource} ("" if none). */
    public String lastWatchQuery(String resource) {
        return lastWatchQuery.getOrDefault(resource, "");
    }

    /** The queries of every list request (a GET that is not a watch) on {@code resource}, in order. */
    public List<String> listQueries(String resource) {
        return List.copyOf(lists.getOrDefault(resource, List.of()));
    }

    /** Open watches on {@code resource} stop receiving events (the events are lost to them). */
    public void mute(String resource) {
        watches.stream().filter(w -> w.resource.equals(resource)).forEach(w -> w.muted = true);
    }

    /**
     * Sends a {@code BOOKMARK} at {@code resourceVersion} to the open watches on {@code resource}
     * ({@code kind} and {@code apiVersion} name the object, as an API server's bookmark does).
     */
    public void bookmark(String resource, String kind, String apiVersion, String resourceVersion) {
        for (TrackedWatch w : watches) {
            if (w.resource.equals(resource) && w.socket != null) {
                w.socket.send("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"" + kind + "\",\"apiVersion\":\"" + apiVersion
                        + "\",\"metadata\":{\"resourceVersion\":\"" + resourceVersion + "\"}}}");
            }
        }
    }

    /** Closes open watches on {@code resource} from the server side, cleanly. */
    public void sever(String resource) {
        for (TrackedWatch w : watches) {
            if (w.resource.equals(resource) && w.socket != null) {
                w.socket.close(1000, "closed by the test");
            }
        }
    }

    /** The next watch request on {@code resource} gets a 410 {@code ERROR} event. */
    public void goneOnNextWatch(String resource) {
        goneNext.put(resource, true);
    }

    /** While on, every watch request on {@code resource} is answered with a plain HTTP 410. */
    public void plainGoneOnWatch(String resource, boolean on) {
        plainGone.put(resource, on);
    }

    /**
     * While on, every watch request on {@code resource} is answered 200 with the 410 {@code ERROR}
     * event as an HTTP body, not inside a WebSocket: how an HTTP/1.1 watch is refused, and to
     * fabric8, which asks for a WebSocket, a failed handshake (the chaos runner's {@code GONE_EVENT}).
     */
    public void goneAsBodyOnWatch(String resource, boolean on) {
        goneAsBody.put(resource, on);
    }

    /**
     * While on, every request on {@code resource} is answered 404 NotFound, as an API server that
     * does not serve the resource answers (ServiceCIDRs before Kubernetes 1.33).
     */
    public void unserve(String resource, boolean on) {
        unserved.put(resource, on);
    }

    /** While on, every request on {@code resource} is answered 403 Forbidden (RBAC without it). */
    public void forbid(String resource, boolean on) {
        forbidden.put(resource, on);
    }

    /** Requests on {@code resource} answered 404 by {@link #unserve}. */
    public int notFoundAnswers(String resource) {
        return notFound.computeIfAbsent(resource, k -> new AtomicInteger()).get();
    }

    /** List pages served with a {@code continue} token, for {@code resource}. */
    public int continuedPages(String resource) {
        return pagedLists.computeIfAbsent(resource, k -> new AtomicInteger()).get();
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
        }
        server.shutdown();
    }

    private static String resourceOf(String path) {
        int q = path.indexOf('?');
        String p = q < 0 ? path : path.substring(0, q);
        return p.substring(p.lastIndexOf('/') + 1);
    }

    private static String query(String path) {
        int q = path.indexOf('?');
        return q < 0 ? "" : path.substring(q + 1);
    }

    private static String status410() {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"too old resource version\",\"reason\":\"Expired\",\"code\":410}";
    }

    private final class Script extends Dispatcher {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String token = requiredToken;
            if (!token.isEmpty() && !("Bearer " + token).equals(request.getHeader("Authorization"))) {
                return new MockResponse().setResponseCode(401).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}");
            }
            String path = request.getPath();
            String resource = resourceOf(path);
            String query = query(path);
            boolean get = "GET".equals(request.getMethod());
            if (unserved.getOrDefault(resource, false)) {
                notFound.computeIfAbsent(resource, k -> new AtomicInteger()).incrementAndGet();
                return new MockResponse().setResponseCode(404).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                        + "\"status\":\"Failure\",\"message\":\"the server could not find the requested resource\","
                        + "\"reason\":\"NotFound\",\"details\":{},\"code\":404}");
            }
            if (forbidden.getOrDefault(resource, false)) {
                return new MockResponse().setResponseCode(403).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                        + "\"status\":\"Failure\",\"message\":\"" + resource + " is forbidden: User \\\"system:serviceaccount:kube-system:kproxy\\\" "
                        + "cannot list resource \\\"" + resource + "\\\"\",\"reason\":\"Forbidden\",\"details\":{},\"code\":403}");
            }
            if (get && query.contains("watch=true")) {
                lastWatchQuery.put(resource, query);
                if (plainGone.getOrDefault(resource, false)) {
                    return new MockResponse().setResponseCode(410).setBody(status410());
                }
                if (goneAsBody.getOrDefault(resource, false)) {
                    return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                            .setBody("{\"type\":\"ERROR\",\"object\":" + status410() + "}\n");
                }
                if (goneNext.remove(resource) != null) {
                    return new MockResponse().withWebSocketUpgrade(new GoneWatch());
                }
                MockResponse inner = crud.dispatch(request);
                TrackedWatch tracked = new TrackedWatch(resource, inner.getWebSocketListener());
                watches.add(tracked);
                return new MockResponse().withWebSocketUpgrade(tracked);
            }
            if (get) {
                lists.computeIfAbsent(resource, k -> new CopyOnWriteArrayList<>()).add(query);
            }
            if (get && query.contains("limit=")) {
                return page(request, resource);
            }
            return crud.dispatch(request);
        }

        /** CRUD mode ignores limit and continue; cut its answer into pages here. */
        private MockResponse page(RecordedRequest request, String resource) {
            String path = request.getPath();
            int q = path.indexOf('?');
            StringBuilder kept = new StringBuilder();
            int limit = 0;
            int offset = 0;
            for (String param : path.substring(q + 1).split("&")) {
                if (param.startsWith("limit=")) {
                    limit = Integer.parseInt(param.substring("limit=".length()));
                } else if (param.startsWith("continue=")) {
                    String token = URLDecoder.decode(param.substring("continue=".length()), StandardCharsets.UTF_8);
                    offset = Integer.parseInt(token.substring(PAGE_TOKEN.length()));
                } else {
                    kept.append(kept.isEmpty() ? "?" : "&").append(param);
                }
            }
            MockResponse whole = crud.dispatch(new RecordedRequest(request.getHttpVersion(), request.method(),
                    path.substring(0, q) + kept, request.getHeaders(), request.getBody()));
            try {
                ObjectNode list = (ObjectNode) MAPPER.readTree(whole.getBody().readUtf8());
                ArrayNode items = (ArrayNode) list.get("items");
                ArrayNode page = MAPPER.createArrayNode();
                for (int i = offset; i < Math.min(items.size(), offset + limit); i++) {
                    page.add(items.get(i));
                }
                list.set("items", page);
                ObjectNode meta = (ObjectNode) list.get("metadata");
                if (offset + limit < items.size()) {
                    meta.put("continue", PAGE_TOKEN + (offset + limit));
                    meta.put("remainingItemCount", items.size() - offset - limit);
                }
                if (offset > 0) {
                    pagedLists.computeIfAbsent(resource, k -> new AtomicInteger()).incrementAndGet();
                }
                return new MockResponse().setResponseCode(200).setBody(MAPPER.writeValueAsString(list));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A watch that says "410 Gone" at once, as an API server does for an expired resourceVersion. */
    private static final class GoneWatch extends WebSocketListener {
        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            webSocket.send("{\"type\":\"ERROR\",\"object\":" + status410() + "}");
        }
    }

    /** Wraps the CRUD mode's watch so that the test can mute or sever it. */
    private final class TrackedWatch extends WebSocketListener {
        private final String resource;
        private final WebSocketListener inner;
        private volatile boolean muted;
        private volatile WebSocket socket;

        TrackedWatch(String resource, WebSocketListener inner) {
            this.resource = resource;
            this.inner = inner;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            inner.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            socket = webSocket;
            inner.onOpen(new WebSocket() {
                @Override
                public RecordedRequest request() {
                    return webSocket.request();
                }

                @Override
                public boolean send(String text) {
                    return muted || webSocket.send(text);
                }

                @Override
                public boolean send(byte[] bytes) {
                    return muted || webSocket.send(bytes);
                }

                @Override
                public boolean close(int code, String reason) {
                    return webSocket.close(code, reason);
                }
            }, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            inner.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            inner.onMessage(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            inner.onClosing(webSocket, code, reason);
        }

        // The CRUD watch waits (up to a minute) for its sender thread when it closes, and that
        // thread may be waiting (up to 30 s) for a write only the event loop can complete: run
        // the close off the event loop so that a client closing mid-send cannot stall the server.
        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            watches.remove(this);
            Thread.ofVirtual().start(() -> inner.onClosed(webSocket, code, reason));
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable error, Response response) {
            watches.remove(this);
            Thread.ofVirtual().start(() -> inner.onFailure(webSocket, error, response));
        }
    }
}
