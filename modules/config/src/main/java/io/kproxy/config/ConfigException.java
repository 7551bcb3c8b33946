package io.kproxy.config;

import java.util.List;
import java.util.OptionalInt;

/**
 * A configuration (or object file) that cannot be used: a syntax error, or every refused field
 * found by binding or validation, each with its path and reason. The message lists them all.
 *
 * <p>Unchecked: configuration errors are fatal at startup and carry everything an operator needs
 * to fix the file. Immutable.
 */
public final class ConfigException extends RuntimeException {

    private final String source;
    private final List<FieldError> errors;
    private final int line;
    private final int column;

    /** Refused fields (at least one). */
    public ConfigException(List<FieldError> errors) {
        this("", errors, 0, 0);
    }

    private ConfigException(String source, List<FieldError> errors, int line, int column) {
        super(message(source, errors, line, column));
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one error");
        }
        this.source = source;
        this.errors = List.copyOf(errors);
        this.line = line;
        this.column = column;
    }

    /** A YAML or JSON syntax error at a 1-based {@code line} and {@code column}. */
    public static ConfigException syntax(int line, int column, String reason) {
        return new ConfigException("", List.of(new FieldError("", "", reason)), line, column);
    }

    /** The same errors, reported as coming from {@code source} (e.g. a file name). */
    public ConfigException from(String source) {
        return new ConfigException(source, errors, line, column);
    }

    /** Every refused field, in the order found. */
    public List<FieldError> errors() {
        return errors;
    }

    /** The 1-based line of a syntax error; empty for field errors. */
    public OptionalInt line() {
        return line > 0 ? OptionalInt.of(line) : OptionalInt.empty();
    }

    /** The 1-based column of a syntax error; empty for field errors. */
    public OptionalInt column() {
        return column > 0 ? OptionalInt.of(column) : OptionalInt.empty();
    }

    /** Where the text came from, {@code ""} when unknown. */
    public String source() {
        return source;
    }

    private static String message(String source, List<FieldError> errors, int line, int column) {
        String prefix = source.isEmpty() ? "" : source + ": ";
        if (line > 0) {
            return prefix + "syntax error at line " + line + ", column " + column + ": " + errors.getFirst().reason();
        }
        StringBuilder sb = new StringBuilder(prefix).append("invalid configuration (")
                .append(errors.size()).append(errors.size() == 1 ? " error)" : " errors)");
        for (FieldError e : errors) {
            sb.append("\n  ").append(e);
        }
        return sb.toString();
    }
}
