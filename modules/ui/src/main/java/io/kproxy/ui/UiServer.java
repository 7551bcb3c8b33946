package io.kproxy.ui;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kproxy.history.History;
import io.kproxy.history.HistoryException;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.EventLogException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code kproxy ui}: the page over one journal, served by the JDK's HTTP server (docs/ui.md).
 * Read only: it answers GET and HEAD, nothing else, and no endpoint appends to the log, takes its
 * lock or talks to the agent. A thread builds the {@link JournalIndex} in the background (the page
 * shows how far it got) and, on a live log, keeps adding what is appended.
 *
 * <p>Bind to loopback (the default of the CLI): the page shows the cluster's Services and
 * endpoints to whoever reaches it. A request whose {@code Host} is not the address it was sent to,
 * {@code localhost} or a loopback address is refused (421), so that a web page on another origin
 * cannot read it through DNS rebinding. Answers carry a strict Content-Security-Policy: the page
 * loads only its own files.
 *
 * <p>Thread-safe; {@link #close()} is idempotent. {@link #forJournal} and {@link #forLog} block
 * only to bind.
 */
public final class UiServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UiServer.class);
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private final HttpServer server;
    private final ExecutorService workers;
    private final Thread indexer;
    private final JournalIndex index = new JournalIndex();
    private final Moments moments;
    private final Api api;
    private final Assets assets = new Assets();
    private final EventLog log;
    private final boolean ownsLog;
    private final AtomicBoolean closed = new AtomicBoolean();

    private UiServer(EventLog log, boolean ownsLog, Supplier<History> opener, InetSocketAddress address, boolean follow) throws IOException {
        this.log = log;
        this.ownsLog = ownsLog;
        this.moments = new Moments(log, opener, index);
        this.api = new Api(index, moments, Clock.systemUTC(), log::nextOffset);
        this.server = HttpServer.create(address, 16);
        this.workers = Executors.newFixedThreadPool(4, Thread.ofPlatform().name("kproxy-ui-", 0).daemon().factory());
        server.setExecutor(workers);
        server.createContext("/", this::handle);
        this.indexer = Thread.ofPlatform().name("kproxy-ui-index").daemon().unstarted(() -> follow(follow));
    }

    /**
     * Serves the journal in {@code dir}, opened read-only (beside a running agent, or a copy).
     *
     * @throws HistoryException {@code UNREADABLE} when there is no journal there
     * @throws IOException      when the address cannot be bound
     */
    public static UiServer forJournal(Path dir, InetSocketAddress address) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new HistoryException(HistoryException.Reason.UNREADABLE, "no journal directory at " + dir);
        }
        LocalJournal journal;
        try {
            journal = LocalJournal.openReadOnly(dir);
        } catch (EventLogException e) {
            throw new HistoryException(HistoryException.Reason.UNREADABLE, "cannot open journal " + dir + ": " + e.getMessage(), e);
        }
        try {
            return new UiServer(journal, true, () -> History.open(dir), address, false).start();
        } catch (IOException | RuntimeException e) {
            journal.close();
            throw e;
        }
    }

    /** Serves a log this process holds (the agent's own journal), following what is appended; closing the server leaves the log open. */
    public static UiServer forLog(EventLog log, InetSocketAddress address) throws IOException {
        return new UiServer(log, false, () -> History.of(log), address, true).start();
    }

    private UiServer start() {
        server.start();
        indexer.start();
        LOG.info("decision=ui-serving address={}", address());
        return this;
    }

    /** The address bound (its port when 0 was asked). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Blocks until the index has caught up with the log (for tools and tests); false on timeout. */
    public boolean awaitIndexed(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (index.progress()[2] >= log.nextOffset()) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    private void follow(boolean live) {
        while (!closed.get()) {
            try {
                long read = index.catchUp(log, 1L << 20);
                if (read == 0 && !live) {
                    return;
                }
                if (read == 0) {
                    Thread.sleep(1000);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.warn("decision=ui-index-stopped error=\"{}\"", Query.printable(String.valueOf(e.getMessage())));
                return;
            }
        }
    }

    private void handle(HttpExchange x) throws IOException {
        try {
            String method = x.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                x.getResponseHeaders().set("Allow", "GET, HEAD");
                send(x, Api.error(405, "read only: " + Query.printable(method) + " is not allowed (GET and HEAD only)"), "application/json");
                return;
            }
            if (!hostAllowed(x.getRequestHeaders().getFirst("Host"))) {
                send(x, Api.error(421, "the Host header names neither this server's address nor localhost"), "application/json");
                return;
            }
            String path = x.getRequestURI().getPath();
            if (path.startsWith("/api/")) {
                send(x, api.answer(path, x.getRequestURI()), "application/json");
                return;
            }
            Optional<Assets.Asset> asset = assets.get(path);
            if (asset.isEmpty()) {
                send(x, Api.error(404, "no such page"), "application/json");
                return;
            }
            reply(x, 200, asset.get().bytes(), asset.get().type());
        } catch (RuntimeException e) {
            LOG.error("decision=ui-request-failed path=\"{}\" error=\"{}\"", Query.printable(x.getRequestURI().getPath()),
                    Query.printable(String.valueOf(e)));
            send(x, Api.error(500, "failed: " + e), "application/json");
        } finally {
            x.close();
        }
    }

    /**
     * On a loopback address, the {@code Host} a browser sends must be loopback too ({@code
     * localhost}, 127.0.0.0/8, ::1; any port, for a port-forward): a name that resolves to
     * loopback by DNS rebinding is refused. Elsewhere the operator chose to expose the page.
     */
    boolean hostAllowed(String host) {
        if (!address().getAddress().isLoopbackAddress()) {
            return true;
        }
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        h = h.startsWith("[") ? h.substring(1, Math.max(1, h.indexOf(']'))) : h.contains(":") ? h.substring(0, h.lastIndexOf(':')) : h;
        return h.equals("localhost") || h.equals("::1") || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static void send(HttpExchange x, Api.Answer a, String type) throws IOException {
        reply(x, a.status(), a.json().getBytes(StandardCharsets.UTF_8), type + "; charset=utf-8");
    }

    private static void reply(HttpExchange x, int status, byte[] body, String type) throws IOException {
        Headers h = x.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("Content-Security-Policy", CSP);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cache-Control", "no-store");
        boolean head = x.getRequestMethod().equals("HEAD");
        x.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop(0);
        indexer.interrupt();
        workers.shutdownNow();
        moments.close();
        if (ownsLog) {
            log.close();
        }
        LOG.info("decision=ui-stopped");
    }
}
