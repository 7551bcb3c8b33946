package io.kproxy.source.kube.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kproxy.source.kube.ApiEvent;
import io.kproxy.source.kube.EventRecorder;
import io.kproxy.source.kube.EventRecorderOptions;
import io.kproxy.source.kube.KubeSourceOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventRecorder} on the API server: {@link #record} puts the Event on a bounded
 * queue and returns; one virtual thread takes it, asks the {@link EventAggregator} (series and
 * rate limit) and writes through an {@link EventWriter}, trying a few times when the API server
 * cannot be reached (client-go's broadcaster tries 12 times, 10 s apart; a proxy's start is not
 * worth holding Events that long). An Event that cannot be queued or written is dropped with
 * one log line carrying the running count ({@code dropped_total}); nothing here ever blocks the
 * caller or throws at it. The writer (and with it the API client: fabric8, the HTTP client, TLS,
 * about a thousand classes) is built by that thread, not by the agent's start, which goes on
 * with the journal and the kernel meanwhile; a writer that cannot be built is logged once, and
 * every Event is then dropped and counted. Thread-safe.
 */
public final class ApiEventRecorder implements EventRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(ApiEventRecorder.class);
    private static final Object STOP = new Object();

    private final Supplier<EventWriter> writerFactory;
    private final Object writerLock = new Object();
    private volatile EventWriter writer; // set under writerLock by the worker, which alone writes through it
    private boolean writerClosed; // guarded by writerLock
    private final EventRecorderOptions options;
    private final Clock clock;
    private final EventAggregator aggregator;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** True while the thread writes an Event taken from the queue (so that a stop that cuts it short counts it). */
    private volatile boolean writing;
    private final Thread worker;

    ApiEventRecorder(EventWriter writer, EventRecorderOptions options, Clock clock) {
        this(() -> writer, options, clock);
    }

    /** {@code writerFactory} runs once, on the recorder's thread, before the first Event is written. */
    ApiEventRecorder(Supplier<EventWriter> writerFactory, EventRecorderOptions options, Clock clock) {
        this.writerFactory = writerFactory;
        this.options = options;
        this.clock = clock;
        this.aggregator = new EventAggregator(options.burst(), options.refillEvery(), options.seriesWindow(), options.seriesRefresh());
        this.worker = Thread.ofVirtual().name("kproxy-events").start(this::run);
    }

    /**
     * The recorder for {@link EventRecorder#toApiServer}: its own client to the source's API
     * server, without fabric8's retries. The settings (the kubeconfig, the token's file) are read
     * here, so that a refusal reaches the caller; the client is built on the recorder's thread.
     */
    public static ApiEventRecorder start(KubeSourceOptions source, EventRecorderOptions options) {
        ClientSettings settings = ClientFactory.settings(source);
        return new ApiEventRecorder(() -> {
            // Its own stats and reachability: the source's connection state and warnings stay the
            // source's; the observer still expires a rejected token so that a rotated one is read.
            Reachability quiet = new Reachability(settings.server(), settings.authentication(), "", System::nanoTime);
            KubernetesClient client = ClientFactory.create(settings, source,
                    new RequestObserver(new SourceStats(Clock.systemUTC()), quiet, settings.token(),
                            new WatchLiveness(source.minWatchTimeout(), System::nanoTime, () -> 0.0)), 0);
            return new Fabric8EventWriter(client, options, source.nodeName().value());
        }, options, Clock.systemUTC());
    }

    @Override
    public void record(ApiEvent event) {
        if (closed.get()) {
            drop(event, "closed", "the recorder is closed");
            return;
        }
        if (queued.incrementAndGet() > options.queueCapacity()) {
            queued.decrementAndGet();
            drop(event, "queue-full", options.queueCapacity() + " Events wait for the API server");
            return;
        }
        queue.add(event);
    }

    /** Events dropped so far, for any reason. */
    public long dropped() {
        return dropped.get();
    }

    /** The writer, built now on the worker; null when it cannot be built (one line) or the recorder closed first. */
    private EventWriter openWriter() {
        EventWriter w;
        try {
            w = writerFactory.get();
        } catch (RuntimeException x) {
            LOG.warn("decision=no-events reason=\"the API client cannot be built\" error=\"{}: {}\"", x.getClass().getSimpleName(),
                    Redactor.scrub(String.valueOf(x.getMessage())));
            return null;
        }
        synchronized (writerLock) {
            if (writerClosed) {
                w.close();
                return null;
            }
            writer = w;
            return w;
        }
    }

    private void closeWriter() {
        synchronized (writerLock) {
            writerClosed = true;
            if (writer != null) {
                writer.close();
            }
        }
    }

    private void run() {
        if (openWriter() == null) {
            dropUntilStopped();
            return;
        }
        Duration tick = options.seriesRefresh().compareTo(Duration.ofSeconds(1)) < 0 ? options.seriesRefresh() : Duration.ofSeconds(1);
        try {
            while (true) {
                Object next = queue.poll(tick.toNanos(), TimeUnit.NANOSECONDS);
                if (next == STOP) {
                    break;
                }
                if (next instanceof ApiEvent e) {
                    queued.decrementAndGet();
                    writing = true;
                    try {
                        handle(e);
                    } finally {
                        writing = false;
                    }
                }
                for (EventAggregator.Decision.Update u : aggregator.due(clock.instant(), false)) {
                    update(u);
                }
            }
            for (EventAggregator.Decision.Update u : aggregator.due(clock.instant(), true)) {
                update(u);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Without a writer: every Event queued or still to come is dropped, counted, until the stop. */
    private void dropUntilStopped() {
        try {
            while (true) {
                Object next = queue.take();
                if (next == STOP) {
                    return;
                }
                if (next instanceof ApiEvent e) {
                    queued.decrementAndGet();
                    drop(e, "no-client", "the recorder has no API client");
                }
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(ApiEvent e) throws InterruptedException {
        Instant now = clock.instant();
        switch (aggregator.offer(e, now)) {
            case EventAggregator.Decision.Create c -> {
                WrittenEvent w = write(e, () -> writer.create(e, now));
                if (w != null) {
                    aggregator.created(e, w, now);
                    LOG.debug("decision=event-recorded reason={} regarding={} api={} name={}", e.reason(), e.regarding(), w.api(), w.name());
                }
            }
            case EventAggregator.Decision.Update u -> update(u);
            case EventAggregator.Decision.Folded f -> LOG.debug("decision=event-folded reason={} regarding={} count={}", e.reason(),
                    e.regarding(), f.count());
            case EventAggregator.Decision.Limited l -> {
                long total = dropped.incrementAndGet();
                if (l.firstSinceAllowed()) {
                    LOG.warn("decision=event-dropped cause=rate-limited reason={} regarding={} dropped_total={} limit=\"{} at once, "
                            + "one more every {}\"", e.reason(), e.regarding(), total, options.burst(), options.refillEvery());
                } else {
                    LOG.debug("decision=event-dropped cause=rate-limited reason={} regarding={} dropped_total={}", e.reason(),
                            e.regarding(), total);
                }
            }
        }
    }

    private void update(EventAggregator.Decision.Update u) throws InterruptedException {
        Boolean ok = write(null, () -> {
            writer.updateSeries(u.written(), u.count(), u.lastObserved());
            return Boolean.TRUE;
        });
        if (ok != null) {
            aggregator.updated(u, clock.instant());
        }
    }

    private interface Write<T> {
        T run() throws EventWriter.EventWriteException;
    }

    /** Runs {@code w} up to {@code attempts} times; null (and one log line) when it fails. */
    private <T> T write(ApiEvent e, Write<T> w) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return w.run();
            } catch (EventWriter.EventWriteException x) {
                if (Thread.currentThread().isInterrupted()) {
                    return null; // cut short by close(), which counts it
                }
                if (!x.retryable() || attempt >= options.attempts()) {
                    long total = dropped.incrementAndGet();
                    if (e == null) {
                        LOG.warn("decision=event-series-not-updated attempts={} dropped_total={} error=\"{}\"", attempt, total, x.getMessage());
                    } else {
                        LOG.warn("decision=event-dropped cause=api-failure reason={} regarding={} attempts={} dropped_total={} error=\"{}\"",
                                e.reason(), e.regarding(), attempt, total, x.getMessage());
                    }
                    return null;
                }
                Thread.sleep(options.retryBackoff());
            } catch (RuntimeException x) {
                if (Thread.currentThread().isInterrupted()) {
                    return null;
                }
                long total = dropped.incrementAndGet();
                LOG.warn("decision=event-dropped cause=client-error dropped_total={} error=\"{}: {}\"", total,
                        x.getClass().getSimpleName(), Redactor.scrub(String.valueOf(x.getMessage())));
                return null;
            }
        }
    }

    private void drop(ApiEvent e, String cause, String detail) {
        LOG.warn("decision=event-dropped cause={} reason={} regarding={} dropped_total={} detail=\"{}\"", cause, e.reason(), e.regarding(),
                dropped.incrementAndGet(), detail);
    }

    /** Lets the thread write what is queued (and the grown series) within the close timeout, then drops the rest. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        queue.add(STOP);
        try {
            if (!worker.join(options.closeTimeout())) {
                boolean cut = writing;
                worker.interrupt();
                worker.join(Duration.ofSeconds(1));
                List<Object> left = new java.util.ArrayList<>();
                queue.drainTo(left);
                long n = left.stream().filter(o -> o instanceof ApiEvent).count() + (cut ? 1 : 0);
                LOG.warn("decision=event-dropped cause=closing count={} dropped_total={} detail=\"not written within {}\"", n,
                        dropped.addAndGet(n), options.closeTimeout());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeWriter();
        }
    }
}
