package io.kproxy.chaos;

/**
 * One broken promise: the run's seed and the moment (milliseconds since the run started) replay
 * it with {@code -Dchaos.seed}; {@code invariant} names the promise (convergence, traffic,
 * journal, health, resources).
 */
record Violation(long seed, long atMillis, String invariant, String fault, String detail) {
    Violation {
        if (atMillis < 0 || invariant.isBlank()) {
            throw new IllegalArgumentException("a violation needs a moment and an invariant");
        }
    }
}
