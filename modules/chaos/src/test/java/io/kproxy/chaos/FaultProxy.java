package io.kproxy.chaos;

import io.kproxy.netns.NetnsThread;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The path between the agent and the API server, with faults: a user-space TCP proxy listening
 * on {@code 127.0.0.1:port} inside the node's network namespace (the agent's {@code --master})
 * and connecting to the mock API server on the runner's loopback. Nothing of the host's network
 * is touched. Faults: {@link #reset()} (every connection ends with a TCP RST),
 * {@link #blackHole(boolean)} (nothing moves in either direction, new connections included, yet
 * every socket stays open: a partition), {@link #stall()} / {@link #releaseStalled()} (the
 * connections open now stop silently, new ones work: a watch that stops delivering),
 * {@link #slow(int)} (each chunk is delayed), {@link #gone(Gone)} (watch requests are answered
 * with 410: an {@code ERROR} event or a plain HTTP 410), {@link #down(boolean)} (connections
 * refused) and {@link #retarget} (a restarted API server). It also ends each watch after its
 * {@code timeoutSeconds}, as an API server does and fabric8's mock does not, so that the agent's
 * watches are renewed as on a cluster and only a half-open one outlives its timeout. Thread-safe.
 */
final class FaultProxy implements AutoCloseable {

    /** How watch requests are answered while {@link #gone} is set. */
    enum Gone { NO, ERROR_EVENT, HTTP_410 }

    private static final int WAIT_STEP_MILLIS = 50;
    private static final Pattern RESOURCE_VERSION = Pattern.compile("[?&]resourceVersion=([0-9]+)");
    private static final Pattern TIMEOUT_SECONDS = Pattern.compile("[?&]timeoutSeconds=([0-9]{1,6})");
    private final ScheduledExecutorService timeouts = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("chaos-proxy-timeouts").factory());

    private final NetnsThread ns;
    private final int port;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final AtomicInteger goneAnswers = new AtomicInteger();
    private volatile InetSocketAddress target;
    private volatile ServerSocket listener;
    private volatile boolean blackHole;
    private volatile int slowMillis;
    private volatile Gone gone = Gone.NO;
    private final BiPredicate<String, Long> serves;
    private volatile boolean closed;

    /** One relayed connection; {@code stalled} holds its bytes until released or reset. */
    private static final class Link {
        final Socket client;
        final Socket server;
        volatile boolean stalled;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }
    }

    private FaultProxy(NetnsThread ns, int port, InetSocketAddress target, BiPredicate<String, Long> serves) {
        this.ns = ns;
        this.port = port;
        this.target = target;
        this.serves = serves;
    }

    /**
     * A proxy to {@code target}. fabric8's mock API server ignores a watch's resourceVersion: it
     * neither replays what changed since nor says it cannot, so a watch resumed after any gap
     * would silently miss the changes made meanwhile, which no API server does. The proxy makes it
     * answer as an API server whose watch cache does not reach back that far: a watch (request
     * line, resourceVersion) that {@code serves} says the mock cannot serve faithfully gets a 410,
     * and the agent relists (k8s.io/client-go tools/cache/reflector.go).
     */
    static FaultProxy start(NetnsThread ns, int port, InetSocketAddress target, BiPredicate<String, Long> serves) {
        FaultProxy p = new FaultProxy(ns, port, target, serves);
        p.down(false);
        return p;
    }

    /** Refuses new connections (and resets the open ones) while {@code down}. */
    synchronized void down(boolean down) {
        if (down) {
            closeQuietly(listener);
            listener = null;
            reset();
            return;
        }
        if (listener != null || closed) {
            return;
        }
        ServerSocket ss = ns.call(() -> {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
            return s;
        });
        listener = ss;
        Thread.ofPlatform().daemon().name("chaos-proxy-accept").start(() -> accept(ss));
    }

    /** Ends every open connection with a TCP RST (SO_LINGER 0), on both sides. */
    void reset() {
        for (Link l : links) {
            rst(l.client);
            rst(l.server);
        }
        links.clear();
    }

    void blackHole(boolean on) {
        blackHole = on;
    }

    /** The connections open now stop forwarding, without a word to either side. */
    void stall() {
        links.forEach(l -> l.stalled = true);
    }

    /** The stalled connections end with a reset (the runner's clean-up after the agent converged without them). */
    void releaseStalled() {
        for (Link l : links) {
            if (l.stalled) {
                rst(l.client);
                rst(l.server);
                links.remove(l);
            }
        }
    }

    void slow(int millis) {
        slowMillis = millis;
    }

    void gone(Gone how) {
        gone = how;
    }

    /** How many watch requests were answered with a 410 (a fault that never met a watch is visible). */
    int goneAnswers() {
        return goneAnswers.get();
    }

    /** The API server restarted on another port. */
    void retarget(InetSocketAddress to) {
        target = to;
    }

    private void accept(ServerSocket ss) {
        while (!ss.isClosed()) {
            Socket in;
            try {
                in = ss.accept();
            } catch (IOException e) {
                return;
            }
            Socket out = new Socket();
            try {
                out.connect(target, 2_000);
            } catch (IOException e) {
                rst(in);
                closeQuietly(out);
                continue;
            }
            Link l = new Link(in, out);
            links.add(l);
            Thread.ofPlatform().daemon().name("chaos-proxy-up").start(() -> pump(l, in, out, true));
            Thread.ofPlatform().daemon().name("chaos-proxy-down").start(() -> pump(l, out, in, false));
        }
    }

    private void pump(Link l, Socket from, Socket to, boolean upstream) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream i = from.getInputStream(); OutputStream o = to.getOutputStream()) {
            while (true) {
                int n = i.read(buf);
                if (n < 0) {
                    return;
                }
                if (!hold(l)) {
                    return;
                }
                if (upstream && isWatchRequest(buf, n) && (gone != Gone.NO || notIssued(buf, n))) {
                    answerGone(l, gone == Gone.HTTP_410 ? Gone.HTTP_410 : Gone.ERROR_EVENT);
                    return;
                }
                if (upstream && isWatchRequest(buf, n)) {
                    endAfterTimeout(l, buf, n);
                }
                int delay = slowMillis;
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                o.write(buf, 0, n);
                o.flush();
            }
        } catch (IOException | InterruptedException e) {
            // reset by a fault, or closed by either side
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            links.remove(l);
        }
    }

    /**
     * Ends the watch {@code timeoutSeconds} after its request, as an API server does: the server
     * closes the connection. A stalled link is half-open, so the close never reaches the agent;
     * during a black hole it arrives once the partition heals.
     */
    private void endAfterTimeout(Link l, byte[] buf, int n) {
        Matcher m = TIMEOUT_SECONDS.matcher(new String(buf, 0, Math.min(n, 512), StandardCharsets.ISO_8859_1));
        if (m.find()) {
            timeouts.schedule(() -> expire(l), Long.parseLong(m.group(1)), TimeUnit.SECONDS);
        }
    }

    private void expire(Link l) {
        if (l.stalled || closed || !links.contains(l)) {
            return;
        }
        if (blackHole) {
            timeouts.schedule(() -> expire(l), 1, TimeUnit.SECONDS);
            return;
        }
        closeQuietly(l.server);
        closeQuietly(l.client);
        links.remove(l);
    }

    /** Waits while the link is black-holed or stalled; false when it was reset meanwhile. */
    private boolean hold(Link l) throws InterruptedException {
        while ((blackHole || l.stalled) && !closed) {
            if (l.client.isClosed() || l.server.isClosed()) {
                return false;
            }
            Thread.sleep(WAIT_STEP_MILLIS);
        }
        return !closed;
    }

    /** A GET whose request line asks for a watch; HTTP/1.1 sends each request from its start. */
    private static boolean isWatchRequest(byte[] buf, int n) {
        String head = new String(buf, 0, Math.min(n, 512), StandardCharsets.ISO_8859_1);
        int eol = head.indexOf("\r\n");
        String line = eol < 0 ? head : head.substring(0, eol);
        return line.startsWith("GET ") && line.contains("watch=true");
    }

    private boolean notIssued(byte[] buf, int n) {
        String head = new String(buf, 0, Math.min(n, 512), StandardCharsets.ISO_8859_1);
        Matcher m = RESOURCE_VERSION.matcher(head);
        if (!m.find() || m.group(1).equals("0")) {
            return false;
        }
        int eol = head.indexOf("\r\n");
        return m.group(1).length() > 18 || !serves.test(eol < 0 ? head : head.substring(0, eol), Long.parseLong(m.group(1)));
    }

    /**
     * What an API server answers a watch from a resourceVersion older than its window
     * (k8s.io/apiserver pkg/storage/cacher, "too old resource version"): an {@code ERROR} event
     * with a 410 Status on a 200 stream, or, from some paths, a plain HTTP 410.
     */
    private void answerGone(Link l, Gone how) throws IOException {
        String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"too old resource version: 1 (2)\",\"reason\":\"Expired\",\"code\":410}";
        String response;
        if (how == Gone.HTTP_410) {
            response = "HTTP/1.1 410 Gone\r\nContent-Type: application/json\r\nContent-Length: " + status.length()
                    + "\r\nConnection: close\r\n\r\n" + status;
        } else {
            String event = "{\"type\":\"ERROR\",\"object\":" + status + "}\n";
            response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + Integer.toHexString(event.length()) + "\r\n" + event + "\r\n0\r\n\r\n";
        }
        OutputStream o = l.client.getOutputStream();
        o.write(response.getBytes(StandardCharsets.ISO_8859_1));
        o.flush();
        goneAnswers.incrementAndGet();
    }

    private static void rst(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(s);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            // nothing to do
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        timeouts.shutdownNow();
        closeQuietly(listener);
        reset();
    }
}
