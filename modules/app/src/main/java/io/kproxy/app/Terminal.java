package io.kproxy.app;

import io.kproxy.model.Printable;

/**
 * How the commands print a value that is not their own text on a terminal line: a path or an
 * argument as given, an exception's message, an object file's problem, the agent's answer on
 * the admin socket. Such a value holding a line feed would add a line that reads like the
 * command's own (a forged "rendered" or "done"); holding ESC it would drive the terminal. So each
 * goes through {@link #text} where it is concatenated (issue 18, defect 4). Messages of
 * {@link io.kproxy.model.InvalidValueException} and {@link io.kproxy.history.HistoryException}
 * are escaped where they are made; escaping is idempotent, so one that goes through here again
 * reads the same. Pure and thread-safe.
 */
final class Terminal {

    private Terminal() {
    }

    /** {@code value} escaped to one printable line ({@link Printable#escape}). */
    static String text(Object value) {
        return Printable.escape(String.valueOf(value));
    }
}
