package io.kproxy.listen;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts connections on one listening socket (TCP or Unix domain) and serves each on its own
 * virtual thread, inside {@link Slots} (the cap and the deadlines) and with {@link AcceptBackoff}
 * when {@code accept} fails. Every kproxy listener is one of these: the health and metrics
 * servers, the per-Service health-check ports ({@link HttpListener}) and the admin socket.
 *
 * <p>{@link #close()} stops accepting and closes the listening socket; connections already
 * admitted belong to their {@link Slots}.
 */
public final class AcceptLoop implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AcceptLoop.class);

    /** Where connections come from: a listening socket, or a test's stand-in. */
    public interface Source extends Closeable {
        /** Blocks until a connection arrives. */
        SocketChannel accept() throws IOException;
    }

    /** Serves one admitted connection; the loop closes it and frees its slot afterwards. */
    public interface Handler {
        void serve(SocketChannel connection, Slots.Slot slot) throws IOException;
    }

    private final String name;
    private final Source source;
    private final Thread thread;
    private volatile boolean closed;

    private AcceptLoop(String name, Source source, Slots slots, Limits limits, Handler handler) {
        this.name = name;
        this.source = source;
        AcceptBackoff backoff = new AcceptBackoff(name, limits);
        this.thread = Thread.ofVirtual().name("kproxy-" + name + "-accept").unstarted(() -> run(slots, limits.requestTimeout(), backoff,
                handler));
    }

    /** Starts accepting from {@code server} (bound, blocking). */
    public static AcceptLoop start(String name, ServerSocketChannel server, Slots slots, Limits limits, Handler handler) {
        return start(name, new Source() {
            @Override
            public SocketChannel accept() throws IOException {
                return server.accept();
            }

            @Override
            public void close() throws IOException {
                server.close();
            }
        }, slots, limits, handler);
    }

    /** Starts accepting from {@code source}. */
    public static AcceptLoop start(String name, Source source, Slots slots, Limits limits, Handler handler) {
        AcceptLoop loop = new AcceptLoop(name, source, slots, limits, handler);
        loop.thread.start();
        return loop;
    }

    private void run(Slots slots, Duration firstRequest, AcceptBackoff backoff, Handler handler) {
        while (!closed) {
            SocketChannel c;
            try {
                c = source.accept();
                backoff.succeeded();
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                try {
                    Thread.sleep(backoff.failed(e));
                } catch (InterruptedException ie) {
                    return;
                }
                continue;
            }
            Optional<Slots.Slot> slot = slots.admit(c, firstRequest);
            slot.ifPresent(s -> Thread.ofVirtual().name("kproxy-" + name + "-conn").start(() -> {
                try (s) {
                    handler.serve(c, s);
                } catch (IOException | RuntimeException e) {
                    // a client that went away, or a connection its deadline closed
                    LOG.debug("decision=drop-connection listener={} error=\"{}\"", name, LogValues.escape(e.toString()));
                }
            }));
        }
    }

    /** Stops accepting and closes the listening socket. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            source.close();
        } catch (IOException e) {
            LOG.debug("decision=continue reason=\"closing a listening socket failed\" listener={} error=\"{}\"", name,
                    LogValues.escape(e.toString()));
        }
        thread.interrupt();
    }
}
