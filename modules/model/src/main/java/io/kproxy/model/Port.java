package io.kproxy.model;

/**
 * A TCP/UDP/SCTP port number, 1 to 65535. "No port" (a NodePort of 0, say) is expressed by the
 * absence of a {@code Port}, never by a zero.
 */
public record Port(int value) implements Comparable<Port> {

    public Port {
        if (value < 1 || value > 65535) {
            throw new InvalidValueException("port", value, "must be between 1 and 65535");
        }
    }

    /** The port, or an error that names {@code field}. */
    public static Port of(String field, long value) {
        if (value < 1 || value > 65535) {
            throw new InvalidValueException(field, value, "must be between 1 and 65535");
        }
        return new Port((int) value);
    }

    @Override
    public int compareTo(Port o) {
        return Integer.compare(value, o.value);
    }

    @Override
    public String toString() {
        return Integer.toString(value);
    }
}
