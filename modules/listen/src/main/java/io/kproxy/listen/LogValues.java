package io.kproxy.listen;

import io.kproxy.model.Printable;

/**
 * Text from outside (a client's request, an error naming it) made safe for one quoted value of a
 * {@code key="value"} log line: backslash and double quote escaped so the value cannot end early,
 * then every control, format and line-separator character escaped by the project's one printable
 * escaping ({@link Printable#escape}), and cut (at 200 characters unless told). A client can then
 * neither end the value nor start a forged line (issue 18).
 */
public final class LogValues {

    private static final int MAX = 200;

    private LogValues() {
    }

    /** {@code s} escaped and cut at 200 characters; never null ({@code "null"} for null). */
    public static String escape(String s) {
        return escape(s, MAX);
    }

    /** {@code s} escaped and cut at {@code max} characters. */
    public static String escape(String s, int max) {
        if (s == null) {
            return "null";
        }
        String cut = s.length() > max ? s.substring(0, max) : s;
        String quoted = Printable.escape(cut.replace("\\", "\\\\").replace("\"", "\\\""));
        return s.length() > max ? quoted + "...(" + s.length() + " chars)" : quoted;
    }
}
