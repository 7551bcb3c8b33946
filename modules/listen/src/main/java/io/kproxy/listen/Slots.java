package io.kproxy.listen;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open connections of one listener or a group of them (the per-Service health-check ports
 * share one), bounded by {@link Limits#maxConnections()}, each with a deadline:
 *
 * <ul>
 *   <li>A connection is <em>waiting</em> for its client (for a request head, or idle between
 *       requests) or <em>busy</em> (being answered). Both phases have a deadline; a sweeper
 *       closes a connection whose deadline passed, which also ends a read or write blocked on
 *       it. Deadlines are absolute per phase, so a client trickling a byte at a time cannot
 *       extend them (a per-read timeout could be).</li>
 *   <li>When the set is full, a new connection closes the one that has been waiting for its
 *       client longest (a stalled half-sent request, an idle keep-alive): a flood of stalled
 *       connections cannot lock a prompt client out. Only when every connection is busy is the
 *       new one closed. Either way it is at once: nothing queues, and the listener never holds
 *       more than {@code maxConnections} descriptors (plus the one just accepted).</li>
 *   <li>What was shed (evicted, refused, timed out mid-request) is logged as one summary line per
 *       {@link Limits#reportEvery()}, never a line per connection: a flood does not become a log
 *       flood.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} closes every connection and stops the sweeper.
 */
public final class Slots implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Slots.class);

    private enum Phase {
        REQUEST,
        IDLE,
        BUSY
    }

    /** One admitted connection. Closing it frees its place (idempotent). */
    public final class Slot implements AutoCloseable {
        private final Closeable connection;
        private Phase phase = Phase.REQUEST;
        private long since;
        private long deadline;
        private boolean released;

        private Slot(Closeable connection, long now, Duration timeout) {
            this.connection = connection;
            this.since = now;
            this.deadline = now + timeout.toNanos();
        }

        /** Waits for (the rest of) a request head, for at most {@code timeout} from now. */
        public void awaitRequest(Duration timeout) {
            set(Phase.REQUEST, timeout);
        }

        /** Waits, kept alive, for a next request, for at most {@code timeout} from now. */
        public void awaitIdle(Duration timeout) {
            set(Phase.IDLE, timeout);
        }

        /** Answers a request, for at most {@code timeout} from now; not evicted meanwhile. */
        public void busy(Duration timeout) {
            set(Phase.BUSY, timeout);
        }

        private void set(Phase p, Duration timeout) {
            synchronized (Slots.this) {
                long now = System.nanoTime();
                phase = p;
                since = now;
                deadline = now + timeout.toNanos();
            }
        }

        @Override
        public void close() {
            synchronized (Slots.this) {
                if (released) {
                    return;
                }
                released = true;
                open.remove(this);
            }
            closeQuietly(connection);
        }
    }

    private final String name;
    private final int capacity;
    private final Duration reportEvery;
    private final Set<Slot> open = new LinkedHashSet<>();
    private final Thread sweeper;
    private long evicted;
    private long refused;
    private long timedOut;
    private boolean closed;

    /**
     * A set named {@code name} in its log lines, with {@code limits}' cap, whose sweeper checks
     * deadlines every tenth of the shortest timeout (between 5 and 250 ms).
     */
    public Slots(String name, Limits limits) {
        this.name = name;
        this.capacity = limits.maxConnections();
        this.reportEvery = limits.reportEvery();
        long shortest = Math.min(limits.requestTimeout().toNanos(), Math.min(limits.idleTimeout().toNanos(), limits.writeTimeout().toNanos()));
        Duration tick = Duration.ofNanos(Math.clamp(shortest / 10, Duration.ofMillis(5).toNanos(), Duration.ofMillis(250).toNanos()));
        this.sweeper = Thread.ofVirtual().name("kproxy-" + name + "-sweeper").start(() -> sweep(tick));
    }

    /**
     * Admits {@code connection}, waiting for its first request head for at most {@code timeout};
     * empty (and {@code connection} closed) when the set is full of busy connections or closed.
     */
    public Optional<Slot> admit(Closeable connection, Duration timeout) {
        Slot victim = null;
        Slot s;
        synchronized (this) {
            if (closed || (open.size() >= capacity && (victim = longestWaiting()) == null)) {
                refused++;
                s = null;
            } else {
                if (victim != null) {
                    victim.released = true;
                    open.remove(victim);
                    evicted++;
                }
                s = new Slot(connection, System.nanoTime(), timeout);
                open.add(s);
            }
        }
        if (victim != null) {
            closeQuietly(victim.connection);
        }
        if (s == null) {
            closeQuietly(connection);
        }
        return Optional.ofNullable(s);
    }

    private Slot longestWaiting() {
        Slot oldest = null;
        for (Slot s : open) {
            if (s.phase != Phase.BUSY && (oldest == null || s.since - oldest.since < 0)) {
                oldest = s;
            }
        }
        return oldest;
    }

    /** Connections open now. */
    public synchronized int size() {
        return open.size();
    }

    private void sweep(Duration tick) {
        long nextReport = System.nanoTime() + reportEvery.toNanos();
        while (true) {
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
            List<Slot> expired = new ArrayList<>();
            long now = System.nanoTime();
            synchronized (this) {
                if (closed) {
                    return;
                }
                for (Slot s : open) {
                    if (now - s.deadline >= 0) {
                        expired.add(s);
                        s.released = true;
                        if (s.phase == Phase.REQUEST) {
                            timedOut++;
                        }
                    }
                }
                open.removeAll(expired);
            }
            expired.forEach(s -> closeQuietly(s.connection));
            if (now - nextReport >= 0) {
                nextReport = now + reportEvery.toNanos();
                report();
            }
        }
    }

    private void report() {
        long e;
        long r;
        long t;
        int size;
        synchronized (this) {
            e = evicted;
            r = refused;
            t = timedOut;
            size = open.size();
            evicted = 0;
            refused = 0;
            timedOut = 0;
        }
        if (e + r + t > 0) {
            LOG.warn("decision=shed-connections listener={} evicted={} refused={} requestTimedOut={} open={} max={} period={}", name, e, r, t,
                    size, capacity, reportEvery);
        }
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // a connection that fails to close is gone as far as this set is concerned
        }
    }

    /** Closes every connection and stops the sweeper. Idempotent. */
    @Override
    public void close() {
        List<Slot> all;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            all = new ArrayList<>(open);
            all.forEach(s -> s.released = true);
            open.clear();
        }
        all.forEach(s -> closeQuietly(s.connection));
        sweeper.interrupt();
    }
}
