package io.kproxy.listen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing of the request head: 1,000 requests mutated from valid ones (bytes inserted,
 * replaced or cut, control characters, long lines, odd methods and versions, pipelined garbage),
 * each sent and half-closed. Every answer is one of the statuses {@link HttpListener} sends or a
 * close, within the write timeout; no connection outlives its deadline; the listener still serves
 * a well-formed request afterwards. The seed is in every failure message
 * ({@code -Dfuzz.seed=N} repeats a run).
 */
class HttpListenerFuzzTest {

    private static final Limits LIMITS = Limits.HTTP.withMaxConnections(16).withTimeouts(Duration.ofMillis(400), Duration.ofMillis(400),
            Duration.ofSeconds(2));
    private static final int CASES = 1_000;
    private static final String[] VALID = {
        "GET /healthz HTTP/1.1\r\nHost: node\r\n\r\n",
        "HEAD /livez?x=1 HTTP/1.1\r\nHost: node\r\nConnection: close\r\n\r\n",
        "POST /healthz HTTP/1.1\r\nHost: node\r\nContent-Length: 5\r\n\r\nhello",
        "GET http://node/healthz HTTP/1.0\r\nUser-Agent: kube-probe/1.33\r\nAccept: */*\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: node\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    };
    private static final String STATUS = "HTTP/1.1 (200 OK|400 Bad Request|404 Not Found|405 Method Not Allowed"
            + "|431 Request Header Fields Too Large|505 HTTP Version Not Supported)\r\n(?s).*";

    @Test
    void mutatedRequestsGetAnAnswerOrACloseWithinBounds() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        try {
            fuzz(seed);
        } catch (RuntimeException | IOException e) {
            throw new AssertionError("seed " + seed + " (-Dfuzz.seed=" + seed + " repeats it)", e);
        }
    }

    private void fuzz(long seed) throws IOException {
        Random r = new Random(seed);
        try (Slots slots = new Slots("fuzz", LIMITS);
                HttpListener listener = HttpListener.bind("fuzz", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), slots, LIMITS)) {
            Map<String, HttpListener.Handler> routes = Map.of("/healthz", p -> new HttpListener.Response(200, "application/json", "{}"),
                    "/livez", p -> new HttpListener.Response(200, "application/json", "{}"));
            listener.start(path -> Optional.ofNullable(routes.get(path)));
            int port = listener.address().getPort();
            int answered = 0;
            for (int i = 0; i < CASES; i++) {
                byte[] request = mutate(r, VALID[r.nextInt(VALID.length)].getBytes(StandardCharsets.ISO_8859_1));
                String what = "seed " + seed + " case " + i + ": " + new String(request, StandardCharsets.ISO_8859_1).replace("\r", "\\r")
                        .replace("\n", "\\n");
                long t0 = System.nanoTime();
                String answer = send(port, request, what);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as(what).isLessThan(Duration.ofMillis(2_500));
                if (!answer.isEmpty()) {
                    answered++;
                    assertThat(answer).as(what).matches(STATUS);
                }
            }
            assertThat(answered).as("seed %d: most mutations still get an answer", seed).isGreaterThan(CASES / 2);
            Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> slots.size() == 0);
            assertThat(send(port, VALID[0].replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII),
                    "seed " + seed)).startsWith("HTTP/1.1 200 OK");
        }
    }

    private static byte[] mutate(Random r, byte[] valid) {
        byte[] b = valid.clone();
        int edits = r.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = b.length == 0 ? 0 : r.nextInt(b.length);
            switch (r.nextInt(6)) {
                case 0 -> {
                    if (b.length > 0) {
                        b[at] = (byte) r.nextInt(256); // replace
                    }
                }
                case 1 -> b = splice(b, at, new byte[] {(byte) r.nextInt(32)}); // a control character
                case 2 -> b = java.util.Arrays.copyOf(b, at); // cut
                case 3 -> b = splice(b, at, ("X-Long: " + "a".repeat(r.nextInt(10_000)) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                case 4 -> b = splice(b, at, new byte[] {' '});
                default -> b = splice(b, b.length, "GARBAGE / HTTP/9.9\r\n\r\n".getBytes(StandardCharsets.US_ASCII)); // pipelined
            }
        }
        return b;
    }

    private static byte[] splice(byte[] b, int at, byte[] insert) {
        byte[] out = new byte[b.length + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at, out, at + insert.length, b.length - at);
        return out;
    }

    /** Sends {@code request}, half-closes, and reads what comes back until the server closes. */
    private static String send(int port, byte[] request, String what) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(3_000);
            try {
                s.getOutputStream().write(request);
                s.shutdownOutput();
            } catch (IOException e) {
                return ""; // closed while sending (a head over the limit): a close is an allowed outcome
            }
            try {
                return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (SocketTimeoutException e) {
                throw new AssertionError(what + ": the server neither answered nor closed within 3 s", e);
            } catch (IOException e) {
                return ""; // reset
            }
        }
    }
}
