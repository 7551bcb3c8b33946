package io.kproxy.ui;

import io.kproxy.config.JsonText;
import io.kproxy.model.Json;

/**
 * A small streaming JSON writer for the API's answers (a timeline is thousands of numbers: no
 * tree is built): objects, arrays, strings, numbers and booleans, commas placed by the writer.
 * Strings are escaped by {@link JsonText} ({@code "}, {@code \} and every control character), so
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

    /** Escaped as the configuration's JSON text escapes (one writer of JSON strings in the build). */
    private void string(String s) {
        out.append(JsonText.write(new Json.Str(s)));
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
