package io.kproxy.sample.simulator;

import io.kproxy.backend.Backend;
import io.kproxy.engine.Engine;
import io.kproxy.engine.EngineClock;
import io.kproxy.engine.EngineOptions;
import io.kproxy.engine.Recorder;
import io.kproxy.journal.spi.EventLog;
import io.kproxy.journal.spi.ForwardingEventLog;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the real engine ({@link Engine}: tail, fold, sync runner, backend, recorder) over a
 * scripted history on virtual time: each event is appended to {@code log} at its time, the engine
 * folds it, its sync runner fires on the virtual clock (minimum interval, hourly full sync,
 * deferred nftables cleanup), the backend renders and diffs for real, and the engine appends its
 * own {@code SyncApplied} records between the source's, as on a node. What the log holds at the
 * end is a recorded agent run. Blocks; deterministic for a log whose tail delivers on the
 * appending thread ({@code MemoryEventLog}); with a journal the engine's records keep their
 * order but folding happens on the journal's thread, so each append is waited for.
 */
final class EngineReplay {

    private static final Duration FOLD_WAIT = Duration.ofSeconds(30);

    private EngineReplay() {
    }

    /**
     * @param events  the history, in time order
     * @param log     an empty log whose clock is {@code time}'s
     * @param backend the dataplane (through a kernel port that goes nowhere); closed by the caller
     * @param options the engine's pacing and snapshot interval
     * @param time    the virtual clock, at or before the first event
     * @param end     how long to keep the engine running after the last event
     */
    static void run(List<TimedEvent> events, EventLog log, Backend backend, EngineOptions options, ManualScheduler time, Instant end) {
        TrackingLog tracking = new TrackingLog(log);
        Engine engine = Engine.start(new Engine.Wiring(tracking, new TimedBackend(backend, time), options,
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), EngineClock.of(time), time, time, time, Recorder.inline()));
        try {
            for (TimedEvent e : events) {
                time.advanceTo(e.at());
                long offset = log.append(e.source(), e.event()).join();
                awaitFolded(engine, offset);
            }
            time.advanceTo(end);
        } finally {
            engine.close(Duration.ofSeconds(5));
            tracking.awaitAppends();
        }
    }

    private static void awaitFolded(Engine engine, long offset) {
        long deadline = System.nanoTime() + FOLD_WAIT.toNanos();
        while (engine.state().offset() < offset) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the engine did not fold offset " + offset + " within " + FOLD_WAIT);
            }
            engine.failure().getNow(null);
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
        }
    }

    /** The log, keeping the futures of the engine's appends so that none is lost when the run ends. */
    private static final class TrackingLog extends ForwardingEventLog {
        private final List<CompletableFuture<List<Long>>> appends = new ArrayList<>();

        TrackingLog(EventLog delegate) {
            super(delegate);
        }

        @Override
        public CompletableFuture<List<Long>> append(List<Draft> drafts) {
            CompletableFuture<List<Long>> f = super.append(drafts);
            synchronized (appends) {
                appends.add(f);
            }
            return f;
        }

        void awaitAppends() {
            List<CompletableFuture<List<Long>>> copy;
            synchronized (appends) {
                copy = List.copyOf(appends);
            }
            CompletableFuture.allOf(copy.toArray(CompletableFuture[]::new)).join();
        }

        @Override
        public void close() {
            // The caller owns the log.
        }
    }
}
