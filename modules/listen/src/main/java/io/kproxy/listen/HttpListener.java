package io.kproxy.listen;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP/1.1 server for kproxy's read-only endpoints, with every limit of {@link Limits}
 * enforced per listener.
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}, which served these endpoints before (issue
 * 18): its limits are JVM-wide system properties read once into static fields
 * ({@code sun.net.httpserver.ServerConfig}, JDK 25: {@code jdk.httpserver.maxConnections},
 * {@code sun.net.httpserver.maxReqTime}, {@code idleInterval}, {@code maxReqHeaders},
 * {@code maxReqHeaderSize}), so the 0.0.0.0 health port, the loopback metrics port and the
 * per-Service ports cannot differ and tests cannot shorten them; {@code maxReqTime} and
 * {@code maxConnections} default to unlimited, which let 20,000 half-sent requests exhaust the
 * agent's file descriptors; its dispatcher logs and retries at once when {@code accept} fails
 * ({@code ServerImpl.Dispatcher}, "Dispatcher (7)"), the spin that issue 18 measured on the admin
 * socket; and over the cap it closes the newest connection, so stalled clients lock prompt ones
 * out. This one evicts the longest-waiting connection instead ({@link Slots}).
 *
 * <p>Behaviour, as Go's {@code net/http} (upstream kube-proxy's server): keep-alive for HTTP/1.1
 * unless {@code Connection: close}; {@code HEAD} answers {@code GET}'s headers, including its
 * {@code Content-Length}, without the body; a {@code Date} header; 400 for a malformed request, 431
 * for a head over {@link Limits#maxRequestBytes()}, both closing the connection. Paths match
 * exactly and the query is ignored. Methods other than {@code GET} and {@code HEAD} are answered
 * 405 with {@code Allow: GET, HEAD} on a path that exists (issue 18; upstream's handlers answer any
 * method alike, {@code pkg/proxy/healthcheck/proxier_health.go}, {@code service_health.go}, but
 * nothing here changes state, so no other method has a meaning).
 *
 * <p>Thread-safe; {@link #close()} stops accepting and closes its connections.
 */
public final class HttpListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HttpListener.class);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);
    /** A body up to this long is read and dropped so the next request, or the close, is clean. */
    private static final long MAX_DRAINED_BODY = 64 * 1024;
    /** How long an unread rest is waited for after an answer that closes the connection ({@link Linger}). */
    private static final Duration LINGER = Duration.ofMillis(500);

    /** An answer. {@code contentType} "" sends none; {@code allow} "" sends no {@code Allow}. */
    public record Response(int status, String contentType, String body, String allow) {
        public Response {
            if (contentType == null || body == null || allow == null || status < 100 || status > 599) {
                throw new IllegalArgumentException("a status 100-599 and non-null texts are required");
            }
        }

        public Response(int status, String contentType, String body) {
            this(status, contentType, body, "");
        }
    }

    /** Answers a {@code GET} (or {@code HEAD}) of a path. Must not block. */
    @FunctionalInterface
    public interface Handler {
        Response answer(String path);
    }

    /** The handler of a path, if it is served. */
    @FunctionalInterface
    public interface Routes {
        Optional<Handler> find(String path);
    }

    private static final Response NOT_FOUND = new Response(404, "text/plain; charset=utf-8", "404 page not found\n");
    private static final Response NOT_ALLOWED = new Response(405, "text/plain; charset=utf-8", "Method Not Allowed\n", "GET, HEAD");

    private final String name;
    private final ServerSocketChannel server;
    private final Slots slots;
    private final Limits limits;
    private volatile Routes routes = path -> Optional.empty();
    /** This listener's connections (its {@link Slots} may be shared), closed with it as Go's {@code Server.Close} does. */
    private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();
    private AcceptLoop loop;
    private volatile boolean closed;

    private HttpListener(String name, ServerSocketChannel server, Slots slots, Limits limits) {
        this.name = name;
        this.server = server;
        this.slots = slots;
        this.limits = limits;
    }

    /**
     * Binds {@code address} (not serving yet: {@link #start}), taking its connections' places
     * from {@code slots}; {@code name} names it in log lines.
     */
    public static HttpListener bind(String name, InetSocketAddress address, Slots slots, Limits limits) throws IOException {
        ServerSocketChannel ch = ServerSocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.bind(address, 128);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return new HttpListener(name, ch, slots, limits);
    }

    /** Starts serving {@code routes}. */
    public synchronized void start(Routes routes) {
        this.routes = routes;
        if (loop == null) {
            loop = AcceptLoop.start(name, server, slots, limits, this::serve);
        }
    }

    /** Where it listens (the real port when 0 was asked for). */
    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the listener is closed", e);
        }
    }

    private void serve(SocketChannel ch, Slots.Slot slot) throws IOException {
        connections.add(ch);
        try {
            if (!closed) {
                serveRequests(ch, slot);
            }
        } finally {
            connections.remove(ch);
        }
    }

    private void serveRequests(SocketChannel ch, Slots.Slot slot) throws IOException {
        InputStream in = new BufferedInputStream(Channels.newInputStream(ch), 4096);
        boolean first = true;
        while (true) {
            if (!first) {
                slot.awaitIdle(limits.idleTimeout());
            }
            Optional<RequestHead> head;
            try {
                boolean later = !first;
                head = RequestHead.read(in, limits.maxRequestBytes(), () -> {
                    if (later) {
                        slot.awaitRequest(limits.requestTimeout());
                    }
                });
            } catch (RequestHead.Rejected e) {
                slot.busy(limits.writeTimeout());
                String reason = reason(e.status());
                String body = e.status() + " " + reason + (e.getMessage().equals(reason) ? "" : ": " + e.getMessage());
                write(ch, new Response(e.status(), "text/plain; charset=utf-8", body), false, false);
                Linger.drain(ch, in, slot, LINGER, MAX_DRAINED_BODY);
                return;
            }
            if (head.isEmpty()) {
                return;
            }
            RequestHead h = head.get();
            boolean keep = h.keepAlive() && !h.chunked() && h.contentLength() <= MAX_DRAINED_BODY;
            if (keep && h.contentLength() > 0) {
                in.skipNBytes(h.contentLength()); // still within the request deadline
            }
            slot.busy(limits.writeTimeout());
            write(ch, answer(h), h.method().equals("HEAD"), keep);
            if (!keep) {
                if (h.contentLength() > 0 || h.chunked()) {
                    Linger.drain(ch, in, slot, LINGER, MAX_DRAINED_BODY);
                }
                return;
            }
            first = false;
        }
    }

    private Response answer(RequestHead h) {
        Optional<Handler> handler = routes.find(h.path());
        if (handler.isEmpty()) {
            return NOT_FOUND;
        }
        if (!h.method().equals("GET") && !h.method().equals("HEAD")) {
            return NOT_ALLOWED;
        }
        try {
            return handler.get().answer(h.path());
        } catch (RuntimeException e) {
            LOG.error("decision=answer-500 listener={} path=\"{}\" error=\"{}\"", name, LogValues.escape(h.path()), LogValues.escape(e.toString()));
            return new Response(500, "text/plain; charset=utf-8", "500 Internal Server Error\n");
        }
    }

    private static void write(SocketChannel ch, Response r, boolean head, boolean keep) throws IOException {
        byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(160).append("HTTP/1.1 ").append(r.status()).append(' ').append(reason(r.status())).append("\r\n");
        if (!r.contentType().isEmpty()) {
            sb.append("Content-Type: ").append(r.contentType()).append("\r\n");
        }
        sb.append("X-Content-Type-Options: nosniff\r\n");
        if (!r.allow().isEmpty()) {
            sb.append("Allow: ").append(r.allow()).append("\r\n");
        }
        sb.append("Date: ").append(DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n");
        sb.append("Content-Length: ").append(body.length).append("\r\n");
        if (!keep) {
            sb.append("Connection: close\r\n");
        }
        sb.append("\r\n");
        byte[] headBytes = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer out = ByteBuffer.allocate(headBytes.length + (head ? 0 : body.length)).put(headBytes);
        if (!head) {
            out.put(body);
        }
        out.flip();
        while (out.hasRemaining()) {
            ch.write(out);
        }
        if (!keep) {
            ch.shutdownOutput();
        }
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            case 505 -> "HTTP Version Not Supported";
            default -> "Status " + status;
        };
    }

    /** Stops accepting, closes the listening socket and this listener's connections. */
    @Override
    public synchronized void close() {
        closed = true;
        for (SocketChannel c : connections) {
            try {
                c.close();
            } catch (IOException e) {
                LOG.debug("decision=continue reason=\"closing a connection failed\" listener={}", name);
            }
        }
        if (loop != null) {
            loop.close();
        } else {
            try {
                server.close();
            } catch (IOException e) {
                LOG.debug("decision=continue reason=\"closing a listener failed\" listener={}", name);
            }
        }
    }
}
