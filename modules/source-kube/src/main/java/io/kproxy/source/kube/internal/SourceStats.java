package io.kproxy.source.kube.internal;

import io.kproxy.model.Printable;
import io.kproxy.source.kube.SourceState;
import io.kproxy.source.kube.SourceStateListener;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's counters, written from informer, appender and watchdog threads, read into a
 * {@link SourceState}. Thread-safe; nothing blocks. {@link #publish()} calls the listeners on the
 * caller's thread, serialised, when the state differs from the last one delivered.
 */
public final class SourceStats {

    private static final Logger LOG = LoggerFactory.getLogger(SourceStats.class);

    private final Clock clock;
    private final AtomicReference<Instant> lastEventTime = new AtomicReference<>(Instant.EPOCH);
    private final AtomicLong relists = new AtomicLong();
    private final AtomicLong forcedRelists = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong appended = new AtomicLong();
    private final AtomicLong appendRetries = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicReference<String> lastError = new AtomicReference<>("");
    private final AtomicBoolean failed = new AtomicBoolean();
    private final List<SourceStateListener> listeners = new CopyOnWriteArrayList<>();
    private volatile BooleanSupplier connected = () -> false;
    private volatile BooleanSupplier synced = () -> false;
    private volatile IntSupplier queueDepth = () -> 0;
    private SourceState lastPublished = SourceState.initial();

    public SourceStats(Clock clock) {
        this.clock = clock;
    }

    /** Where the live parts of the state come from (set once the parts exist). */
    public void bind(BooleanSupplier connected, BooleanSupplier synced, IntSupplier queueDepth) {
        this.connected = connected;
        this.synced = synced;
        this.queueDepth = queueDepth;
    }

    public void eventReceived() {
        lastEventTime.set(clock.instant());
    }

    public void relisted(boolean forced) {
        relists.incrementAndGet();
        if (forced) {
            forcedRelists.incrementAndGet();
        }
    }

    public void reconnected() {
        reconnects.incrementAndGet();
    }

    public void appended(int count) {
        appended.addAndGet(count);
    }

    public void appendRetried() {
        appendRetries.incrementAndGet();
    }

    public void skipped() {
        skipped.incrementAndGet();
    }

    /**
     * Keeps {@code message} as the last error, escaped to one printable line: it holds the API
     * server's and objects' text (a key, a refused value) and is shown by {@code kproxy status}.
     */
    public void error(String message) {
        lastError.set(message == null ? "unknown error" : Printable.escape(message));
    }

    public void failed(String message) {
        error(message);
        failed.set(true);
    }

    public boolean hasFailed() {
        return failed.get();
    }

    public void addListener(SourceStateListener listener) {
        listeners.add(listener);
    }

    public SourceState snapshot() {
        return new SourceState(connected.getAsBoolean(), synced.getAsBoolean(), lastEventTime.get(), relists.get(),
                forcedRelists.get(), reconnects.get(), queueDepth.getAsInt(), appended.get(), appendRetries.get(),
                skipped.get(), lastError.get(), failed.get());
    }

    /** Delivers the current state to every listener if it changed since the last delivery. */
    public synchronized void publish() {
        SourceState now = snapshot();
        if (now.equals(lastPublished)) {
            return;
        }
        lastPublished = now;
        for (SourceStateListener l : listeners) {
            try {
                l.onState(now);
            } catch (RuntimeException e) {
                LOG.warn("decision=ignore-listener-failure listener={} error={}", l, e.toString());
            }
        }
    }
}
