package io.kproxy.model;

/**
 * A value that cannot be constructed: names the field, the offending value and the reason.
 *
 * <p>Thrown by every factory and compact constructor in this module. Never carries a null field;
 * the value is quoted as given (truncated to keep log lines short). The message is one printable
 * line ({@link Printable#escape}): it reaches logs, standard error and warning events, and the
 * value in it is the outside world's, so a value holding a line feed or ESC must not be able to
 * add a line or drive a terminal there. {@link #value()} stays as given.
 */
public final class InvalidValueException extends IllegalArgumentException {

    private static final int MAX_QUOTED = 120;

    private final String field;
    private final String value;
    private final String reason;

    public InvalidValueException(String field, Object value, String reason) {
        super(message(field, value, reason));
        this.field = field;
        this.value = String.valueOf(value);
        this.reason = reason;
    }

    /** The field (a path such as {@code spec.clusterIP}) that held the bad value. */
    public String field() {
        return field;
    }

    /** The bad value, as given. */
    public String value() {
        return value;
    }

    /** Why the value was refused. */
    public String reason() {
        return reason;
    }

    /** The same error, but reported at a longer field path (e.g. {@code spec.ports[0]} + {@code .port}). */
    public InvalidValueException at(String prefix) {
        return new InvalidValueException(prefix + (field.isEmpty() || field.startsWith("[") ? "" : ".") + field, value, reason);
    }

    private static String message(String field, Object value, String reason) {
        String quoted = String.valueOf(value);
        if (quoted.length() > MAX_QUOTED) {
            quoted = quoted.substring(0, MAX_QUOTED) + "...";
        }
        return Printable.escape("invalid " + field + " \"" + quoted + "\": " + reason);
    }
}
