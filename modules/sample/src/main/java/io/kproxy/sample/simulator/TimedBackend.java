package io.kproxy.sample.simulator;

import io.kproxy.backend.Backend;
import io.kproxy.backend.ForwardingBackend;
import io.kproxy.backend.KernelException;
import io.kproxy.backend.Transaction;
import java.time.Duration;

/**
 * A real backend (rendering, diffing, through a kernel port that goes nowhere) whose applies take
 * virtual time, so that a history recorded on {@link ManualScheduler} time shows sync durations of
 * the size a node measures (2 ms plus 20 µs per operation; docs/benchmarks.md has the real ones).
 * Everything else is the delegate's. Confined to the engine's sync thread, like any backend.
 */
final class TimedBackend extends ForwardingBackend {

    static final Duration BASE = Duration.ofMillis(2);
    static final Duration PER_OPERATION = Duration.ofNanos(20_000);

    private final ManualScheduler time;

    TimedBackend(Backend delegate, ManualScheduler time) {
        super(delegate);
        this.time = time;
    }

    @Override
    public void apply(Transaction transaction) throws KernelException {
        delegate().apply(transaction);
        time.advanceBy(BASE.plus(PER_OPERATION.multipliedBy(transaction.operations())));
    }
}
