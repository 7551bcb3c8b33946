package io.kproxy.state;

import io.kproxy.model.InvalidValueException;
import java.util.ArrayList;
import java.util.List;

/** Collects the {@link Rejection}s found while reading one object. Not thread-safe; one per read. */
final class Problems {

    private final long offset;
    private final String kind;
    private final String key;
    private final List<Rejection> found = new ArrayList<>();

    Problems(long offset, String kind, String key) {
        this.offset = offset;
        this.kind = kind;
        this.key = key;
    }

    void add(String field, String reason) {
        found.add(new Rejection(offset, kind, key, field, reason));
    }

    /** Reports a value refused by a model constructor, at {@code field}, saying what was done. */
    void add(String field, InvalidValueException e, String consequence) {
        add(field, "invalid value \"" + shorten(e.value()) + "\": " + e.reason() + "; " + consequence);
    }

    /** Reports a value refused by the configuration core at {@code field}, saying what was done. */
    void add(String field, String value, String reason, String consequence) {
        add(field, (value.isEmpty() ? "" : "invalid value \"" + shorten(value) + "\": ") + reason + "; " + consequence);
    }

    List<Rejection> list() {
        return List.copyOf(found);
    }

    private static String shorten(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
