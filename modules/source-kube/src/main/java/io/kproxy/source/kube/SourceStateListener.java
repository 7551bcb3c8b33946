package io.kproxy.source.kube;

/**
 * Receives the source's state when it changes. Called on the source's monitor thread, at most
 * once per watchdog tick (and on relists, failures and close), never concurrently with itself;
 * an implementation must not block for long. Exceptions it throws are logged and ignored.
 */
@FunctionalInterface
public interface SourceStateListener {

    /** The new state (never null). */
    void onState(SourceState state);
}
