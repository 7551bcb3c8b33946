package io.kproxy.config;

import io.kproxy.model.Json;
import java.util.List;
import java.util.Map;

/**
 * Compact JSON text of a {@link Json} tree (no blanks; keys in the tree's order), the text that
 * error messages quote for a value of the wrong type and that {@code /configz} and the admin
 * protocol send. Written here rather than by a JSON library so that the configuration core needs
 * none; the loader's tests check it is byte for byte what Jackson's generator writes: {@code "}
 * and {@code \} escaped, the C0 controls as {@code \b \t \n \f \r} or <code>&#92;u00XX</code> (upper-case
 * hex), everything else as it is; numbers as {@link Long#toString(long)} and
 * {@link Double#toString(double)}. Pure and thread-safe.
 */
public final class JsonText {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private JsonText() {
    }

    /** The compact JSON text of {@code json}. */
    public static String write(Json json) {
        StringBuilder b = new StringBuilder();
        write(b, json);
        return b.toString();
    }

    private static void write(StringBuilder b, Json json) {
        switch (json) {
            case Json.Obj(Map<String, Json> fields) -> {
                b.append('{');
                boolean first = true;
                for (Map.Entry<String, Json> e : fields.entrySet()) {
                    b.append(first ? "" : ",");
                    first = false;
                    string(b, e.getKey());
                    b.append(':');
                    write(b, e.getValue());
                }
                b.append('}');
            }
            case Json.Arr(List<Json> items) -> {
                b.append('[');
                for (int i = 0; i < items.size(); i++) {
                    b.append(i == 0 ? "" : ",");
                    write(b, items.get(i));
                }
                b.append(']');
            }
            case Json.Str(String s) -> string(b, s);
            case Json.Int(long v) -> b.append(v);
            case Json.Dec(double v) -> b.append(Double.toString(v));
            case Json.Bool(boolean v) -> b.append(v);
            case Json.Null n -> b.append("null");
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\b' -> b.append("\\b");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\f' -> b.append("\\f");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20) {
                        b.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
