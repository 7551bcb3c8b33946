package io.kproxy.engine;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.scheduler.Scheduler;

/**
 * Runs the sync function with the guarantees of upstream's {@code BoundedFrequencyRunner}
 * ({@code pkg/proxy/runner/bounded_frequency_runner.go}, docs/upstream-behaviour.md §1.5 row 40):
 *
 * <ol>
 *   <li><b>Minimum interval.</b> At least {@code minInterval} passes between the <em>end</em> of
 *       one run and the <em>start</em> of the next, whatever triggered it; requests during that
 *       cooldown are coalesced into one run when it expires. No bursts.</li>
 *   <li><b>Maximum interval.</b> The function runs at least once every {@code maxInterval}
 *       (measured from the end of the previous run), even without requests: kube-proxy's hourly
 *       full resync.</li>
 *   <li><b>Retry.</b> A run that fails is run again no later than the delay it asks for (at most
 *       {@code retryInterval}), unless a request or the maximum interval runs it sooner; a
 *       successful run cancels the pending retry.</li>
 *   <li><b>Coalescing.</b> {@link #run()} never blocks: any number of requests made before a run
 *       starts become that one run. Requests made before {@link #start()} are dropped, as
 *       upstream drops {@code Run()} before {@code Loop()} is ready.</li>
 *   <li><b>Follow-up.</b> A successful run may ask to run again after a delay (the backend's
 *       deferred work, e.g. nftables chains that may only be deleted a second after they were
 *       flushed); that is a request that fires later.</li>
 * </ol>
 *
 * <p>The clock is the scheduler's: timers are scheduled on a {@link Scheduler.Worker} and elapsed
 * time is read from {@code nanoTime}, so tests run it on Reactor's virtual time. Threading: the
 * function and every state change run on that one worker, never concurrently; {@link #run()},
 * {@link #start()} and {@link #close()} may be called from any thread; only {@link #close()}
 * blocks (until a run in progress ends).
 */
public final class SyncRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SyncRunner.class);

    /** What one run of the function asks of the runner. */
    public sealed interface Outcome permits Outcome.Succeeded, Outcome.Failed {

        /** The run succeeded; run again after {@code followUpIn} when present. */
        record Succeeded(Optional<Duration> followUpIn) implements Outcome {
            public Succeeded {
                if (followUpIn == null) {
                    throw new IllegalArgumentException("followUpIn must not be null (use Optional.empty())");
                }
            }
        }

        /** The run failed; retry after {@code retryIn} (capped at the runner's retry interval). */
        record Failed(Duration retryIn) implements Outcome {
            public Failed {
                if (retryIn == null || retryIn.isNegative()) {
                    throw new IllegalArgumentException("retryIn must be zero or positive");
                }
            }
        }

        static Outcome succeeded() {
            return new Succeeded(Optional.empty());
        }
    }

    private final String name;
    private final Supplier<Outcome> fn;
    private final long minNanos;
    private final long retryNanos;
    private final long maxNanos;
    private final EngineClock clock;
    private final Scheduler.Worker worker;
    private final AtomicBoolean requestQueued = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean closed;

    // Confined to the worker.
    private boolean pending;
    private long lastEnd = Long.MIN_VALUE;
    private Disposable nextRun;
    private Disposable maxTimer;
    private Disposable retryTimer;
    private Disposable followUpTimer;
    private volatile long runs;

    /**
     * @param name          for logs
     * @param fn            the sync function; runs on the scheduler's worker and may block
     * @param minInterval   at least this long between the end of a run and the start of the next
     * @param retryInterval the longest a failed run waits for its retry
     * @param maxInterval   the longest between two runs
     * @param scheduler     where runs and timers execute (a single thread in production, virtual time in tests)
     * @param clock         elapsed time; must agree with {@code scheduler}'s timers
     * @throws IllegalArgumentException when {@code maxInterval < minInterval}, as upstream panics
     */
    public SyncRunner(String name, Supplier<Outcome> fn, Duration minInterval, Duration retryInterval, Duration maxInterval,
            Scheduler scheduler, EngineClock clock) {
        if (minInterval.isNegative() || retryInterval.isNegative() || maxInterval.compareTo(minInterval) < 0) {
            throw new IllegalArgumentException(name + ": maxInterval (" + maxInterval + ") must be >= minInterval (" + minInterval
                    + ") and no interval may be negative");
        }
        this.name = name;
        this.fn = fn;
        this.minNanos = minInterval.toNanos();
        this.retryNanos = retryInterval.toNanos();
        this.maxNanos = maxInterval.toNanos();
        this.clock = clock;
        this.worker = scheduler.createWorker();
    }

    /** Arms the maximum-interval timer and accepts requests from now on. Idempotent. */
    public void start() {
        if (started.compareAndSet(false, true)) {
            worker.schedule(() -> maxTimer = schedule(this::onTimer, maxNanos));
        }
    }

    /** Asks for a run as soon as the minimum interval allows. Never blocks; coalesces; dropped before {@link #start()}. */
    public void run() {
        if (!started.get() || closed) {
            return;
        }
        if (requestQueued.compareAndSet(false, true)) {
            worker.schedule(() -> {
                requestQueued.set(false);
                request();
            });
        }
    }

    /** How many runs have completed (for tests and logs). Thread-safe snapshot. */
    public long runs() {
        return runs;
    }

    private void onTimer() {
        request();
    }

    private void request() {
        if (closed) {
            return;
        }
        pending = true;
        scheduleNext();
    }

    private void scheduleNext() {
        if (!pending || nextRun != null || closed) {
            return;
        }
        long wait = lastEnd == Long.MIN_VALUE ? 0 : Math.max(0, lastEnd + minNanos - clock.nanoTime());
        nextRun = schedule(this::execute, wait);
    }

    private void execute() {
        nextRun = null;
        if (closed) {
            return;
        }
        pending = false;
        cancel(maxTimer);
        Outcome outcome;
        try {
            outcome = fn.get();
        } catch (RuntimeException e) {
            // Upstream's loop survives a crashing function (utilruntime.HandleCrash); so do we, as a failure.
            LOG.error("runner={} decision=retry reason=\"function threw\" error=\"{}\"", name, e.toString(), e);
            outcome = new Outcome.Failed(Duration.ofNanos(retryNanos));
        }
        runs++;
        lastEnd = clock.nanoTime();
        switch (outcome) {
            case Outcome.Failed f -> {
                cancel(retryTimer);
                long in = Math.min(f.retryIn().toNanos(), retryNanos);
                LOG.debug("runner={} decision=retry in_millis={}", name, in / 1_000_000);
                retryTimer = schedule(this::onTimer, in);
            }
            case Outcome.Succeeded s -> {
                cancel(retryTimer);
                retryTimer = null;
                cancel(followUpTimer);
                followUpTimer = s.followUpIn().map(d -> schedule(this::onTimer, d.toNanos())).orElse(null);
            }
        }
        maxTimer = schedule(this::onTimer, maxNanos);
        scheduleNext();
    }

    private Disposable schedule(Runnable task, long delayNanos) {
        return delayNanos <= 0 ? worker.schedule(task) : worker.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    private static void cancel(Disposable d) {
        if (d != null) {
            d.dispose();
        }
    }

    /**
     * Stops: no run starts after this returns, timers are cancelled, and a run in progress is
     * waited for (up to {@code timeout}); it is never interrupted, so a kernel transaction is
     * never cut short. Idempotent.
     */
    public void close(Duration timeout) {
        if (closed) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        closed = true;
        worker.schedule(done::countDown);
        try {
            if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("runner={} decision=stop-without-waiting reason=\"run still in progress after {}\"", name, timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        worker.dispose();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(60));
    }
}
