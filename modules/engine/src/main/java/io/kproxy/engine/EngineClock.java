package io.kproxy.engine;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import reactor.core.scheduler.Scheduler;

/**
 * The engine's clock: wall time for timestamps (health, metrics, events) and a monotonic
 * counter for elapsed time (sync durations, the runner's intervals). Injected everywhere, so
 * that tests run the whole engine on Reactor's virtual time. Implementations are thread-safe and
 * never block.
 */
public interface EngineClock {

    /** Wall-clock time now. */
    Instant now();

    /** A monotonic nanosecond counter (only differences mean anything). */
    long nanoTime();

    /** The system clocks: {@link Instant#now()} and {@link System#nanoTime()}. */
    static EngineClock system() {
        return new EngineClock() {
            @Override
            public Instant now() {
                return Instant.now();
            }

            @Override
            public long nanoTime() {
                return System.nanoTime();
            }
        };
    }

    /**
     * The clock of a scheduler, e.g. a {@code VirtualTimeScheduler} in tests: both readings come
     * from {@code scheduler.now(NANOSECONDS)}, so they agree with the scheduler's timers.
     */
    static EngineClock of(Scheduler scheduler) {
        return new EngineClock() {
            @Override
            public Instant now() {
                long nanos = scheduler.now(TimeUnit.NANOSECONDS);
                return Instant.ofEpochSecond(0, nanos);
            }

            @Override
            public long nanoTime() {
                return scheduler.now(TimeUnit.NANOSECONDS);
            }
        };
    }
}
