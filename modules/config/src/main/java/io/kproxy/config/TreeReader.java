package io.kproxy.config;

import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Strict reading of one JSON object during binding, with Go's {@code encoding/json} rules as
 * upstream's strict decoder applies them: {@code null} or an absent field is the zero value, a
 * value of another JSON type is refused, and a field no accessor asked for is an unknown field.
 * Every refusal is added to the shared error list with its full path; reading goes on with the
 * zero value so that all errors are found in one pass. Not thread-safe (one binding at a time).
 */
final class TreeReader {

    private final String path;
    private final Json.Obj obj;
    private final List<FieldError> errors;
    private final Set<String> known = new HashSet<>();

    /** The reason of a field no accessor asked for. */
    static final String UNKNOWN_FIELD = "unknown field";

    private TreeReader(String path, Json.Obj obj, List<FieldError> errors) {
        this.path = path;
        this.obj = obj;
        this.errors = errors;
    }

    /** A reader of the document root. */
    static TreeReader root(Json.Obj obj, List<FieldError> errors) {
        return new TreeReader("", obj, errors);
    }

    /** The path of {@code key} under this object. */
    String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** The nested object at {@code key}; absent, null or of the wrong type reads as an empty object. */
    TreeReader object(String key) {
        Json v = take(key);
        if (v instanceof Json.Obj o) {
            return new TreeReader(path(key), o, errors);
        }
        if (v != null) {
            wrongType(path(key), v, "an object");
        }
        return new TreeReader(path(key), Json.Obj.EMPTY, errors);
    }

    String string(String key) {
        return scalar(key, "a string", j -> j instanceof Json.Str(String s) ? Optional.of(s) : Optional.empty()).orElse("");
    }

    boolean bool(String key) {
        return scalar(key, "true or false", j -> j instanceof Json.Bool(boolean b) ? Optional.of(b) : Optional.empty()).orElse(false);
    }

    /** A Go {@code int32}. */
    int int32(String key) {
        return (int) integer(key, Integer.MIN_VALUE, Integer.MAX_VALUE, "a 32-bit integer");
    }

    /** A Go {@code uint32} that must also fit Java's {@code int} (upstream validation caps it at MaxInt32). */
    int uint31(String key) {
        return (int) integer(key, 0, Integer.MAX_VALUE, "an integer between 0 and 2147483647");
    }

    long int64(String key) {
        return integer(key, Long.MIN_VALUE, Long.MAX_VALUE, "an integer");
    }

    /** A Go {@code float32}: any JSON number. */
    float float32(String key) {
        return scalar(key, "a number", j -> switch (j) {
            case Json.Int(long n) -> Optional.of((float) n);
            case Json.Dec(double d) -> Optional.of((float) d);
            default -> Optional.<Float>empty();
        }).orElse(0f);
    }

    /** A {@code metav1.Duration}: a string in Go's duration syntax. */
    Duration duration(String key) {
        Json v = take(key);
        if (v == null || v instanceof Json.Null) {
            return Duration.ZERO;
        }
        if (v instanceof Json.Str(String s)) {
            return parseDuration(key, s);
        }
        wrongType(path(key), v, "a duration string such as \"30s\" or \"1h2m3.5s\"");
        return Duration.ZERO;
    }

    /** component-base's {@code TimeOrMetaDuration}: a Go duration string, or an integer count of nanoseconds. */
    Duration durationOrNanos(String key) {
        Json v = obj.fields().get(key);
        if (v instanceof Json.Int(long n)) {
            known.add(key);
            return Duration.ofNanos(n);
        }
        return duration(key);
    }

    /** A {@code resource.Quantity}: a string, or a JSON integer (kept as its decimal text). */
    String quantity(String key) {
        Json v = obj.fields().get(key);
        if (v instanceof Json.Int(long n)) {
            known.add(key);
            return Long.toString(n);
        }
        return string(key);
    }

    /** A {@code []string}; null reads as empty. */
    List<String> strings(String key) {
        List<String> out = new ArrayList<>();
        List<Json> items = array(key);
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof Json.Str(String s)) {
                out.add(s);
            } else if (!(items.get(i) instanceof Json.Null)) {
                wrongType(path(key) + "[" + i + "]", items.get(i), "a string");
            } else {
                out.add("");
            }
        }
        return out;
    }

    /** A list of objects; each element is read by its own reader. */
    List<TreeReader> objects(String key) {
        List<TreeReader> out = new ArrayList<>();
        List<Json> items = array(key);
        for (int i = 0; i < items.size(); i++) {
            String p = path(key) + "[" + i + "]";
            if (items.get(i) instanceof Json.Obj o) {
                out.add(new TreeReader(p, o, errors));
            } else {
                if (!(items.get(i) instanceof Json.Null)) {
                    wrongType(p, items.get(i), "an object");
                }
                out.add(new TreeReader(p, Json.Obj.EMPTY, errors));
            }
        }
        return out;
    }

    /** A {@code map[string]bool}; null reads as empty. */
    Map<String, Boolean> boolMap(String key) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        TreeReader m = object(key);
        for (Map.Entry<String, Json> e : m.obj.fields().entrySet()) {
            m.known.add(e.getKey());
            if (e.getValue() instanceof Json.Bool(boolean b)) {
                out.put(e.getKey(), b);
            } else {
                wrongType(m.path(e.getKey()), e.getValue(), "true or false");
            }
        }
        return out;
    }

    /** A string naming one of a closed set; {@code ""}, null or absent read as {@code whenEmpty}. */
    <E> E choice(String key, Function<String, Optional<E>> byName, E whenEmpty, String allowed) {
        String s = string(key);
        if (s.isEmpty()) {
            return whenEmpty;
        }
        Optional<E> e = byName.apply(s);
        if (e.isEmpty()) {
            error(path(key), s, "unsupported value: must be " + allowed);
            return whenEmpty;
        }
        return e.get();
    }

    /** Marks {@code key} as known without reading it (fields kept for Windows, or already checked). */
    void accept(String key) {
        known.add(key);
    }

    /** Reports every field of this object that no accessor asked for. */
    void finish() {
        for (Map.Entry<String, Json> e : obj.fields().entrySet()) {
            if (!known.contains(e.getKey())) {
                error(path(e.getKey()), "", UNKNOWN_FIELD);
            }
        }
    }

    void error(String fieldPath, String value, String reason) {
        errors.add(new FieldError(fieldPath, value, reason));
    }

    Duration parseDuration(String key, String s) {
        try {
            return GoDuration.parse(path(key), s);
        } catch (InvalidValueException e) {
            error(path(key), s, e.reason());
            return Duration.ZERO;
        }
    }

    private List<Json> array(String key) {
        Json v = take(key);
        if (v instanceof Json.Arr(List<Json> items)) {
            return items;
        }
        if (v != null && !(v instanceof Json.Null)) {
            wrongType(path(key), v, "a list");
        }
        return List.of();
    }

    private long integer(String key, long min, long max, String expected) {
        Json v = take(key);
        if (v == null || v instanceof Json.Null) {
            return 0;
        }
        if (v instanceof Json.Int(long n) && n >= min && n <= max) {
            return n;
        }
        wrongType(path(key), v, expected);
        return 0;
    }

    private <T> Optional<T> scalar(String key, String expected, Function<Json, Optional<T>> read) {
        Json v = take(key);
        if (v == null || v instanceof Json.Null) {
            return Optional.empty();
        }
        Optional<T> t = read.apply(v);
        if (t.isEmpty()) {
            wrongType(path(key), v, expected);
        }
        return t;
    }

    private Json take(String key) {
        known.add(key);
        return obj.fields().get(key);
    }

    private void wrongType(String fieldPath, Json v, String expected) {
        error(fieldPath, text(v), "expected " + expected + ", got " + kind(v));
    }

    /** A short text of a value for error messages. */
    static String text(Json v) {
        return v instanceof Json.Str(String s) ? s : JsonText.write(v);
    }

    private static String kind(Json v) {
        return switch (v) {
            case Json.Obj o -> "an object";
            case Json.Arr a -> "a list";
            case Json.Str s -> "a string";
            case Json.Int i -> "an integer";
            case Json.Dec d -> "a decimal number";
            case Json.Bool b -> "a boolean";
            case Json.Null n -> "null";
        };
    }
}
