package io.kproxy.ui;

/**
 * A small JSON writer for the API's answers: objects, arrays, strings, numbers and booleans,
 * commas placed by the writer. Every string is escaped ({@code "}, {@code \}, every character
 * below U+0020, U+2028/U+2029, and {@code <} {@code >} so that no answer reads as markup), so
 * text from a journal can never end a string or add a field. Not thread-safe; one answer per writer.
 */
final class JsonOut {

    private final StringBuilder out = new StringBuilder(256);
    /** Whether the next value in the current container needs a comma first. */
    private boolean comma;

    JsonOut beginObject() {
        separate();
        out.append('{');
        comma = false;
        return this;
    }

    JsonOut endObject() {
        out.append('}');
        comma = true;
        return this;
    }

    JsonOut beginArray() {
        separate();
        out.append('[');
        comma = false;
        return this;
    }

    JsonOut endArray() {
        out.append(']');
        comma = true;
        return this;
    }

    /** Starts a field: its value follows. */
    JsonOut name(String name) {
        separate();
        string(name);
        out.append(':');
        comma = false;
        return this;
    }

    JsonOut field(String name, String value) {
        return name(name).value(value);
    }

    JsonOut field(String name, long value) {
        return name(name).value(value);
    }

    JsonOut field(String name, double value) {
        return name(name).value(value);
    }

    JsonOut field(String name, boolean value) {
        name(name);
        out.append(value);
        comma = true;
        return this;
    }

    JsonOut value(String value) {
        separate();
        string(value);
        comma = true;
        return this;
    }

    JsonOut value(long value) {
        separate();
        out.append(value);
        comma = true;
        return this;
    }

    /** A finite number; NaN and the infinities become 0 (JSON has no word for them). */
    JsonOut value(double value) {
        separate();
        if (!Double.isFinite(value)) {
            out.append('0');
        } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            out.append((long) value);
        } else {
            out.append(value);
        }
        comma = true;
        return this;
    }

    private void separate() {
        if (comma) {
            out.append(',');
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029 || c == '<' || c == '>') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
