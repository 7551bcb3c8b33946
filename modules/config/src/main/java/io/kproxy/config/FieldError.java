package io.kproxy.config;

import java.util.Objects;

/**
 * One refused configuration value. Immutable.
 *
 * @param path   the field path with upstream's JSON names, e.g. {@code iptables.masqueradeBit}
 *               or {@code nodePortAddresses[2]}; {@code ""} for the document itself
 * @param value  the offending value as text ({@code ""} when there is none, e.g. a missing field)
 * @param reason why it was refused
 */
public record FieldError(String path, String value, String reason) {

    private static final int MAX_QUOTED = 120;

    public FieldError {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(reason, "reason");
    }

    /** {@code path: reason (value "v")}, the value shortened to keep log lines short. */
    @Override
    public String toString() {
        String where = path.isEmpty() ? "(document)" : path;
        if (value.isEmpty()) {
            return where + ": " + reason;
        }
        String v = value.length() > MAX_QUOTED ? value.substring(0, MAX_QUOTED) + "..." : value;
        return where + ": " + reason + " (value \"" + v + "\")";
    }
}
