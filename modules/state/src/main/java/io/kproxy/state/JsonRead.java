package io.kproxy.state;

import io.kproxy.model.Json;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Typed reads from a {@link Json.Obj} that never throw: an absent field or JSON {@code null} is
 * "not set", and a field of the wrong JSON type is reported to {@link Problems} and treated as
 * not set.
 */
final class JsonRead {

    private JsonRead() {
    }

    static Optional<String> string(Json.Obj o, String key, String path, Problems p) {
        Json v = o.fields().get(key);
        if (v == null || v instanceof Json.Null) {
            return Optional.empty();
        }
        if (v instanceof Json.Str(String s)) {
            return Optional.of(s);
        }
        p.add(path, "expected a string; ignored");
        return Optional.empty();
    }

    static OptionalLong integer(Json.Obj o, String key, String path, Problems p) {
        Json v = o.fields().get(key);
        if (v == null || v instanceof Json.Null) {
            return OptionalLong.empty();
        }
        if (v instanceof Json.Int(long n)) {
            return OptionalLong.of(n);
        }
        p.add(path, "expected an integer; ignored");
        return OptionalLong.empty();
    }

    static Optional<Boolean> bool(Json.Obj o, String key, String path, Problems p) {
        Json v = o.fields().get(key);
        if (v == null || v instanceof Json.Null) {
            return Optional.empty();
        }
        if (v instanceof Json.Bool(boolean b)) {
            return Optional.of(b);
        }
        p.add(path, "expected a boolean; ignored");
        return Optional.empty();
    }

    static Json.Obj object(Json.Obj o, String key, String path, Problems p) {
        Json v = o.fields().get(key);
        if (v == null || v instanceof Json.Null) {
            return Json.Obj.EMPTY;
        }
        if (v instanceof Json.Obj obj) {
            return obj;
        }
        p.add(path, "expected an object; ignored");
        return Json.Obj.EMPTY;
    }

    static List<Json> array(Json.Obj o, String key, String path, Problems p) {
        Json v = o.fields().get(key);
        if (v == null || v instanceof Json.Null) {
            return List.of();
        }
        if (v instanceof Json.Arr(List<Json> items)) {
            return items;
        }
        p.add(path, "expected an array; ignored");
        return List.of();
    }

    /** The strings of an array; non-string items are reported and left out. */
    static List<String> strings(Json.Obj o, String key, String path, Problems p) {
        List<Json> items = array(o, key, path, p);
        if (items.isEmpty()) {
            return List.of();
        }
        String[] out = new String[items.size()];
        int n = 0;
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof Json.Str(String s)) {
                out[n++] = s;
            } else {
                p.add(path + "[" + i + "]", "expected a string; ignored");
            }
        }
        return List.of(Arrays.copyOf(out, n));
    }

    /** The object items of an array; other items are reported and left out. */
    static List<Json.Obj> objects(Json.Obj o, String key, String path, Problems p) {
        List<Json> items = array(o, key, path, p);
        if (items.isEmpty()) {
            return List.of();
        }
        Json.Obj[] out = new Json.Obj[items.size()];
        int n = 0;
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof Json.Obj obj) {
                out[n++] = obj;
            } else {
                p.add(path + "[" + i + "]", "expected an object; ignored");
            }
        }
        return List.of(Arrays.copyOf(out, n));
    }
}
