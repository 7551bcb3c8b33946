package io.kproxy.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable JSON value: the form in which Kubernetes objects and configuration documents
 * travel through kproxy. Observations keep the object as the API server sent it, so that a newer
 * fold can read fields an older one ignored.
 *
 * <p>Objects keep their key order (it survives encoding); equality ignores it. Integers and
 * decimals are distinct ({@link Int}, {@link Dec}) so that every value round-trips exactly.
 * Instances are immutable and safe to share between threads; no component is ever null.
 */
public sealed interface Json permits Json.Obj, Json.Arr, Json.Str, Json.Int, Json.Dec, Json.Bool, Json.Null {

    /** A JSON object. */
    record Obj(Map<String, Json> fields) implements Json {
        public static final Obj EMPTY = new Obj(Map.of());

        public Obj {
            fields = OrderedFields.of(fields);
        }

        /**
         * An object over {@code keys[i] -> values[i]}, in that order, that adopts both arrays
         * instead of copying them: for decoders that build trees from bytes (the event codec reads
         * a million of them per replay), where the copy into a map and out again costs more than
         * the decoding. The caller hands the arrays over: it must have created them for this call
         * and must never read, write or share them afterwards, since the object stays immutable
         * only as long as nobody else holds them. Everything else is checked as for the
         * constructor. Returns {@link #EMPTY} for two empty arrays.
         *
         * @throws InvalidValueException when the lengths differ, an element is null or a key
         *         occurs twice
         */
        public static Obj ofOwnedArrays(String[] keys, Json[] values) {
            if (keys.length == 0 && values.length == 0) {
                return EMPTY;
            }
            return new Obj(OrderedFields.adopt(keys, values));
        }

        public Optional<Json> field(String key) {
            return Optional.ofNullable(fields.get(key));
        }

        public Optional<String> string(String key) {
            return fields.get(key) instanceof Str(String s) ? Optional.of(s) : Optional.empty();
        }

        public Optional<Long> integer(String key) {
            return fields.get(key) instanceof Int(long v) ? Optional.of(v) : Optional.empty();
        }

        public Optional<Boolean> bool(String key) {
            return fields.get(key) instanceof Bool(boolean b) ? Optional.of(b) : Optional.empty();
        }

        /** The object at {@code key}, or empty when absent or not an object. */
        public Obj object(String key) {
            return fields.get(key) instanceof Obj o ? o : EMPTY;
        }

        /** The array at {@code key}, or an empty list when absent or not an array. */
        public List<Json> array(String key) {
            return fields.get(key) instanceof Arr(List<Json> items) ? items : List.of();
        }

        /** A copy with {@code key} set (appended when new, replaced in place otherwise). */
        public Obj with(String key, Json value) {
            LinkedHashMap<String, Json> m = new LinkedHashMap<>(fields);
            m.put(key, value);
            return new Obj(m);
        }

        /** A copy without {@code key}. */
        public Obj without(String key) {
            if (!fields.containsKey(key)) {
                return this;
            }
            LinkedHashMap<String, Json> m = new LinkedHashMap<>(fields);
            m.remove(key);
            return new Obj(m);
        }

        public int size() {
            return fields.size();
        }
    }

    /** A JSON array. */
    record Arr(List<Json> items) implements Json {
        public static final Arr EMPTY = new Arr(List.of());

        public Arr {
            items = List.copyOf(items);
        }
    }

    /** A JSON string. */
    record Str(String value) implements Json {
        public Str {
            if (value == null) {
                throw new InvalidValueException("json", "null", "a string value is required");
            }
        }
    }

    /** A JSON number without fraction or exponent that fits in 64 bits. */
    record Int(long value) implements Json {
    }

    /** Any other JSON number. */
    record Dec(double value) implements Json {
        public Dec {
            if (!Double.isFinite(value)) {
                throw new InvalidValueException("json", value, "JSON numbers are finite");
            }
        }
    }

    /** {@code true} or {@code false}. */
    record Bool(boolean value) implements Json {
        public static final Bool TRUE = new Bool(true);
        public static final Bool FALSE = new Bool(false);
    }

    /** {@code null}. */
    record Null() implements Json {
        public static final Null INSTANCE = new Null();
    }

    static Str of(String s) {
        return new Str(s);
    }

    static Int of(long v) {
        return new Int(v);
    }

    static Bool of(boolean b) {
        return b ? Bool.TRUE : Bool.FALSE;
    }

    /** An object from alternating keys and values: {@code obj("a", Json.of(1), "b", ...)}. */
    static Obj obj(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new InvalidValueException("json", keysAndValues.length, "keys and values must alternate");
        }
        LinkedHashMap<String, Json> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], (Json) keysAndValues[i + 1]);
        }
        return new Obj(m);
    }

    static Arr arr(Json... items) {
        return new Arr(List.of(items));
    }

    static Arr arr(List<? extends Json> items) {
        return new Arr(Collections.unmodifiableList(new ArrayList<>(items)));
    }
}
