package io.kproxy.events;

import io.kproxy.model.IpAddress;
import io.kproxy.model.Json;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A debug printer: an {@link Envelope} as pretty JSON that names every field of the envelope
 * and of its event (found through the record components, so a field added to an event shows up
 * here without anyone remembering to print it). It is the human-readable expected form of the
 * corpus under {@code events/corpus/}.
 *
 * <p>Rendering rules: JSON objects keep their key order (the codec preserves it); integers print
 * as integers and decimals always with a fraction or exponent ({@code 1.0}, {@code -0.0},
 * {@code 4.9E-324}), so the two stay distinct; strings escape everything outside printable
 * ASCII as {@code \\uXXXX}, so the files are ASCII and no editor can normalise them; instants and
 * durations print in ISO-8601 ({@link Instant#toString}, {@link Duration#toString}); sets print
 * sorted; enums print their name.
 */
final class EnvelopePrinter {

    private EnvelopePrinter() {
    }

    static String print(Envelope e) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n");
        field(sb, 1, "offset").append(e.offset()).append(",\n");
        field(sb, 1, "recordedAt").append(quote(e.recordedAt().toString())).append(",\n");
        field(sb, 1, "source").append(quote(e.source())).append(",\n");
        field(sb, 1, "event");
        event(sb, 1, e.event());
        sb.append("\n}\n");
        return sb.toString();
    }

    private static void event(StringBuilder sb, int indent, ClusterEvent event) {
        sb.append("{\n");
        field(sb, indent + 1, "type").append(quote(event.getClass().getSimpleName())).append(",\n");
        field(sb, indent + 1, "tag").append(event.type().tag());
        components(sb, indent + 1, (Record) event);
        sb.append('\n').append("  ".repeat(indent)).append('}');
    }

    private static void components(StringBuilder sb, int indent, Record r) {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            sb.append(",\n");
            field(sb, indent, c.getName());
            value(sb, indent, read(c, r));
        }
    }

    private static void value(StringBuilder sb, int indent, Object v) {
        switch (v) {
            case Json j -> json(sb, indent, j);
            case String s -> sb.append(quote(s));
            case Boolean b -> sb.append(b);
            case Long l -> sb.append(l);
            case Integer i -> sb.append(i);
            case Instant t -> sb.append(quote(t.toString()));
            case Duration d -> sb.append(quote(d.toString()));
            case Enum<?> en -> sb.append(quote(en.name()));
            case IpAddress ip -> sb.append(quote(ip.toString())); // its text, not its bits
            case Set<?> set -> list(sb, indent, List.copyOf(new TreeSet<>(set)));
            case Collection<?> col -> list(sb, indent, List.copyOf(col));
            case Record rec -> {
                sb.append("{");
                StringBuilder inner = new StringBuilder();
                components(inner, indent + 1, rec);
                sb.append(inner.substring(1)).append('\n').append("  ".repeat(indent)).append('}');
            }
            default -> throw new IllegalArgumentException("no rendering for " + v.getClass().getName() + "; teach EnvelopePrinter");
        }
    }

    private static void list(StringBuilder sb, int indent, List<?> items) {
        if (items.isEmpty()) {
            sb.append("[]");
            return;
        }
        sb.append("[\n");
        for (int i = 0; i < items.size(); i++) {
            sb.append("  ".repeat(indent + 1));
            value(sb, indent + 1, items.get(i));
            sb.append(i + 1 < items.size() ? ",\n" : "\n");
        }
        sb.append("  ".repeat(indent)).append(']');
    }

    private static void json(StringBuilder sb, int indent, Json j) {
        switch (j) {
            case Json.Null n -> sb.append("null");
            case Json.Bool(boolean b) -> sb.append(b);
            case Json.Int(long v) -> sb.append(v);
            case Json.Dec(double d) -> sb.append(Double.toString(d));
            case Json.Str(String s) -> sb.append(quote(s));
            case Json.Arr(List<Json> items) -> list(sb, indent, items);
            case Json.Obj(Map<String, Json> fields) -> {
                if (fields.isEmpty()) {
                    sb.append("{}");
                    return;
                }
                sb.append("{\n");
                int i = 0;
                for (Map.Entry<String, Json> f : fields.entrySet()) {
                    field(sb, indent + 1, f.getKey());
                    json(sb, indent + 1, f.getValue());
                    sb.append(++i < fields.size() ? ",\n" : "\n");
                }
                sb.append("  ".repeat(indent)).append('}');
            }
        }
    }

    private static StringBuilder field(StringBuilder sb, int indent, String name) {
        return sb.append("  ".repeat(indent)).append(quote(name)).append(": ");
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7E) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static Object read(RecordComponent c, Record r) {
        try {
            return c.getAccessor().invoke(r);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + c.getName() + " of " + r.getClass().getSimpleName(), e);
        }
    }
}
