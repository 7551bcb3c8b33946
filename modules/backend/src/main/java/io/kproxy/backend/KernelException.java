package io.kproxy.backend;

import java.util.Optional;

/**
 * The kernel (or the tool in front of it) refused or failed a transaction. Sorted for the
 * engine's retry policy: {@link Kind#RETRYABLE} failures (busy, interrupted, a transient
 * resource shortage, a tool that timed out) are retried after the retry interval with a full
 * sync; {@link Kind#FATAL} ones (a rule the kernel rejects, a missing capability) will fail the
 * same way again until the input or the machine changes, and are reported loudly.
 *
 * <p>Holds the tool's own message and, when it names one, the failing line of the
 * transaction text (1-based) and that line's text.
 */
public final class KernelException extends Exception {

    /** How the engine should react. */
    public enum Kind {
        RETRYABLE,
        FATAL
    }

    private final Kind kind;
    private final String toolMessage;
    private final int failingLineNumber;
    private final String failingLine;

    public KernelException(Kind kind, String toolMessage, int failingLineNumber, String failingLine, Throwable cause) {
        super(describe(kind, toolMessage, failingLineNumber, failingLine), cause);
        if (kind == null || toolMessage == null) {
            throw new IllegalArgumentException("kind and toolMessage are required");
        }
        this.kind = kind;
        this.toolMessage = toolMessage;
        this.failingLineNumber = failingLineNumber;
        this.failingLine = failingLine;
    }

    public KernelException(Kind kind, String toolMessage) {
        this(kind, toolMessage, 0, null, null);
    }

    private static String describe(Kind kind, String msg, int line, String text) {
        String m = (kind == null ? "?" : kind.name().toLowerCase()) + " kernel error: " + (msg == null ? "" : msg.strip());
        return line > 0 ? m + " (line " + line + ": " + text + ")" : m;
    }

    public Kind kind() {
        return kind;
    }

    public boolean retryable() {
        return kind == Kind.RETRYABLE;
    }

    /** The tool's message, verbatim. */
    public String toolMessage() {
        return toolMessage;
    }

    /** The 1-based number of the failing line of the transaction text, when the tool named one. */
    public Optional<Integer> failingLineNumber() {
        return failingLineNumber > 0 ? Optional.of(failingLineNumber) : Optional.empty();
    }

    /** The failing line's text, when the tool named one. */
    public Optional<String> failingLine() {
        return Optional.ofNullable(failingLine);
    }
}
