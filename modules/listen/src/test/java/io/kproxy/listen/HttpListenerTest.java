package io.kproxy.listen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HttpListener} on loopback, over raw sockets: what Go's {@code net/http} answers (keep-alive,
 * {@code HEAD}, 400, 431), 405 with {@code Allow} for other methods (issue 18), and the limits: a
 * slow or stalled client is closed at its deadline, an idle one after the idle timeout, and a flood
 * of half-sent requests does not keep a prompt client out.
 */
class HttpListenerTest {

    private static final Limits LIMITS = Limits.HTTP.withMaxConnections(8).withTimeouts(Duration.ofMillis(500), Duration.ofMillis(500),
            Duration.ofSeconds(2));

    private Slots slots;
    private HttpListener listener;
    private int port;

    @BeforeEach
    void start() throws IOException {
        slots = new Slots("test", LIMITS);
        listener = HttpListener.bind("test", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), slots, LIMITS);
        Map<String, HttpListener.Handler> routes = Map.of("/healthz", path -> new HttpListener.Response(200, "application/json", "{}"));
        listener.start(path -> Optional.ofNullable(routes.get(path)));
        port = listener.address().getPort();
    }

    @AfterEach
    void stop() {
        listener.close();
        slots.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(5_000);
        return s;
    }

    /** Sends {@code raw} and reads until the server closes. */
    private String exchange(String raw) throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void getAndHeadAnswerAsGoDoes() throws IOException {
        String get = exchange("GET /healthz?verbose=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(get).startsWith("HTTP/1.1 200 OK\r\n").contains("\r\nContent-Type: application/json\r\n",
                "\r\nX-Content-Type-Options: nosniff\r\n", "\r\nContent-Length: 2\r\n", "\r\nDate: ").endsWith("\r\n\r\n{}");
        String head = exchange("HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(head).startsWith("HTTP/1.1 200 OK\r\n").contains("\r\nContent-Length: 2\r\n").endsWith("\r\n\r\n");
        assertThat(exchange("GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 404 Not Found\r\n")
                .endsWith("404 page not found\n");
        assertThat(exchange("GET /healthz HTTP/1.0\r\n\r\n")).as("HTTP/1.0 needs no Host and is not kept alive")
                .startsWith("HTTP/1.1 200 OK\r\n").contains("\r\nConnection: close\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "BREW"})
    void otherMethodsAre405WithAllow(String method) throws IOException {
        String r = exchange(method + " /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(r).startsWith("HTTP/1.1 405 Method Not Allowed\r\n").contains("\r\nAllow: GET, HEAD\r\n").endsWith("Method Not Allowed\n");
        assertThat(exchange(method + " /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 404 ");
    }

    @Test
    void aPostWithABodyFromARealClientGets405() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz"))
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(5000))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("Allow")).contains("GET, HEAD");
    }

    @Test
    void malformedAndOversizedRequestsAreRefusedAndClosed() throws IOException {
        assertThat(exchange("GET /healthz HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400 Bad Request\r\n").contains("Connection: close")
                .endsWith("missing required Host header");
        assertThat(exchange("HELLO\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        assertThat(exchange("GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 505 ");
        assertThat(exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nBad\u0001: y\r\n\r\n")).startsWith("HTTP/1.1 400 ");
        String big = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + "a".repeat(LIMITS.maxRequestBytes()) + "\r\n\r\n";
        assertThat(exchange(big)).startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n").contains("Connection: close");
    }

    @Test
    void keepAliveServesSeveralRequestsThenTheIdleTimeoutClosesIt() throws IOException {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String two = readResponses(in, 2);
            assertThat(two.split("HTTP/1.1 200 OK", -1)).hasSize(3);
            out.write("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readHead(in)).startsWith("HTTP/1.1 200 OK").doesNotContain("Connection: close");
            long t0 = System.nanoTime();
            assertThat(in.read()).as("closed after the idle timeout").isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(300), Duration.ofMillis(2_000));
        }
    }

    @Test
    void aClientTricklingItsHeadIsClosedAtTheRequestDeadline() throws IOException {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            long t0 = System.nanoTime();
            byte[] head = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(StandardCharsets.US_ASCII);
            boolean closed = false;
            for (int i = 0; i < head.length && !closed; i++) {
                try {
                    out.write(head[i]); // one byte per 50 ms: no single read waits long
                    out.flush();
                    Thread.sleep(50);
                } catch (IOException | InterruptedException e) {
                    closed = true;
                }
                if (Duration.ofNanos(System.nanoTime() - t0).toMillis() > 1_500) {
                    break;
                }
            }
            s.setSoTimeout(2_000);
            int r;
            try {
                r = s.getInputStream().read();
            } catch (IOException e) {
                r = -1; // reset: closed as well
            }
            assertThat(r).isEqualTo(-1);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(2_000));
        }
    }

    @Test
    void aFloodOfHalfSentRequestsDoesNotKeepAPromptClientOut() throws Exception {
        List<Socket> flood = new ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) {
                Socket s = connect();
                s.getOutputStream().write("GET /healthz HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                flood.add(s);
            }
            long t0 = System.nanoTime();
            String r = exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(r).startsWith("HTTP/1.1 200 OK");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(1_000));
            assertThat(slots.size()).isLessThanOrEqualTo(LIMITS.maxConnections());
        } finally {
            for (Socket s : flood) {
                s.close();
            }
        }
    }

    @Test
    void listenersSharingSlotsShareOneCap() throws Exception {
        // As the per-Service health-check ports do: a flood on one port takes places from the
        // group, never more than the group's cap, and the other port still answers.
        try (HttpListener other = HttpListener.bind("other", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), slots, LIMITS)) {
            other.start(path -> Optional.of(p -> new HttpListener.Response(200, "application/json", "{}")));
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 50; i++) {
                    Socket s = new Socket(InetAddress.getLoopbackAddress(), other.address().getPort());
                    s.getOutputStream().write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
                    flood.add(s);
                }
                // Until the other port's accept loop has taken the whole flood, a flood connection
                // it accepts after the fresh one below could evict the fresh one (the longest
                // waiting goes first, and the fresh one may not have been read yet): wait until the
                // server has closed all but a cap's worth of the flood.
                assertThat(closedByServer(flood, Duration.ofSeconds(10))).isGreaterThanOrEqualTo(flood.size() - LIMITS.maxConnections());
                assertThat(exchange("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200 OK");
                assertThat(slots.size()).isLessThanOrEqualTo(LIMITS.maxConnections());
            } finally {
                for (Socket s : flood) {
                    s.close();
                }
            }
        }
    }

    /** How many of {@code sockets} the server has closed (a read sees the end), waiting up to {@code within} for all but a cap's worth. */
    private static int closedByServer(List<Socket> sockets, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        Set<Socket> closed = new HashSet<>();
        while (closed.size() < sockets.size() - LIMITS.maxConnections() && System.nanoTime() < deadline) {
            for (Socket s : sockets) {
                if (closed.contains(s)) {
                    continue;
                }
                s.setSoTimeout(1);
                try {
                    if (s.getInputStream().read() < 0) {
                        closed.add(s);
                    }
                } catch (SocketTimeoutException e) {
                    // still open
                } catch (IOException e) {
                    closed.add(s); // reset by the server
                }
            }
        }
        return closed.size();
    }

    private static String readResponses(InputStream in, int n) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String head = readHead(in);
            sb.append(head);
            int len = Integer.parseInt(head.replaceAll("(?s).*Content-Length: (\\d+).*", "$1"));
            sb.append(new String(in.readNBytes(len), StandardCharsets.ISO_8859_1));
        }
        return sb.toString();
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        try {
            while (!sb.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                sb.append((char) b);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer: " + sb, e);
        }
        return sb.toString();
    }
}
