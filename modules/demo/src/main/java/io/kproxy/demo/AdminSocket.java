package io.kproxy.demo;

import io.kproxy.engine.DataplaneControl;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The agent's admin socket as the live demo uses it: served for the demo's engine, then asked
 * what {@code kproxy rollback}, {@code kproxy status} and {@code kproxy resume} ask
 * (docs/operations.md, "Rollback and resume"). {@link ProtocolAdminSocket} is the real one (the
 * admin module's server and client, so the demo shows the real protocol); tests that must never
 * reach it pass their own. Implementations block until the agent answered (a pin waits for its sync); the
 * demo calls them from one thread; no argument is null and nothing returned is null.
 */
public interface AdminSocket {

    /**
     * Serves {@code control} on a new socket at {@code path} until the result is closed.
     *
     * @param syncTimeout how long a pin may wait for the sync that programs it
     */
    AutoCloseable serve(Path path, DataplaneControl control, Duration syncTimeout) throws IOException;

    /** {@code kproxy rollback --to to --reason reason}: the agent's answer, one line. */
    String rollback(Path path, Instant to, String reason) throws Refused;

    /** {@code kproxy status}: the status as that command prints it. */
    String status(Path path) throws Refused;

    /** {@code kproxy resume --reason reason}: the agent's answer, one line. */
    String resume(Path path, String reason) throws Refused;

    /** No answer came back, or an answer other than done; the message says which, for a person. */
    final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        public Refused(String message) {
            super(message);
        }
    }
}
