package io.kproxy.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The kernel's table sampled every {@value #PERIOD_MILLIS} ms from the moment a fault ended, so
 * that the convergence time is when the kernel first held the expected rules, not when the
 * runner finished rendering what to expect. Keeps each distinct listing with the moment it was
 * first seen (bounded). Started and stopped by the schedule thread.
 */
final class KernelWatch implements AutoCloseable {

    static final int PERIOD_MILLIS = 200;
    private static final int MAX_CHANGES = 2_000;

    /** A listing and when (System.nanoTime) it was first seen. */
    record Seen(long at, String ruleset) {
    }

    private final Supplier<String> kernel;
    private final List<Seen> seen = new ArrayList<>();
    private final Thread thread;

    KernelWatch(Supplier<String> kernel) {
        this.kernel = kernel;
        this.thread = Thread.ofPlatform().daemon().name("chaos-kernel-watch").start(this::loop);
    }

    private void loop() {
        String last = null;
        while (!Thread.currentThread().isInterrupted()) {
            long at = System.nanoTime();
            String now = kernel.get();
            if (!now.equals(last)) {
                synchronized (seen) {
                    if (seen.size() < MAX_CHANGES) {
                        seen.add(new Seen(at, now));
                    }
                }
                last = now;
            }
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The moment the latest listing was first seen, when it equals {@code expected}; -1 otherwise. */
    long equalSince(String expected) {
        synchronized (seen) {
            if (seen.isEmpty() || !seen.getLast().ruleset().equals(expected)) {
                return -1;
            }
            return seen.getLast().at();
        }
    }

    /** The latest listing (empty before the first sample). */
    String latest() {
        synchronized (seen) {
            return seen.isEmpty() ? "" : seen.getLast().ruleset();
        }
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
