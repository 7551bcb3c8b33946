package io.kproxy.bench.codec;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.ServiceObserved;
import io.kproxy.model.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Compact JSON text (no blanks) of what a record carries, the yardstick the binary size is
 * compared with: {@code {"recordedAt":…,"source":…,"type":…,"resourceVersion":…,"object":{…}}},
 * the object exactly as the API server would send it. Not thread-safe per call; stateless.
 */
final class CompactJson {

    private CompactJson() {
    }

    static byte[] envelope(Envelope e) {
        StringBuilder sb = new StringBuilder(2048);
        sb.append("{\"recordedAt\":");
        string(sb, e.recordedAt().toString());
        sb.append(",\"source\":");
        string(sb, e.source());
        sb.append(",\"type\":");
        string(sb, e.event().type().name());
        Json.Obj object = observedObject(e);
        String rv = e.event() instanceof ServiceObserved s ? s.resourceVersion() : ((EndpointSliceObserved) e.event()).resourceVersion();
        sb.append(",\"resourceVersion\":");
        string(sb, rv);
        sb.append(",\"object\":");
        json(sb, object);
        sb.append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The object an observation carries; only Service and EndpointSlice observations are benchmarked. */
    static Json.Obj observedObject(Envelope e) {
        if (e.event() instanceof ServiceObserved s) {
            return s.object();
        }
        if (e.event() instanceof EndpointSliceObserved s) {
            return s.object();
        }
        throw new IllegalArgumentException("only Service and EndpointSlice observations are benchmarked");
    }

    /** The object alone, as the API server sends it (no envelope). */
    static byte[] object(Json value) {
        StringBuilder sb = new StringBuilder(2048);
        json(sb, value);
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void json(StringBuilder sb, Json j) {
        switch (j) {
            case Json.Null n -> sb.append("null");
            case Json.Bool(boolean b) -> sb.append(b);
            case Json.Int(long v) -> sb.append(v);
            case Json.Dec(double d) -> sb.append(d);
            case Json.Str(String s) -> string(sb, s);
            case Json.Arr(List<Json> items) -> {
                sb.append('[');
                for (int i = 0; i < items.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    json(sb, items.get(i));
                }
                sb.append(']');
            }
            case Json.Obj(Map<String, Json> fields) -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Json> f : fields.entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    string(sb, f.getKey());
                    sb.append(':');
                    json(sb, f.getValue());
                }
                sb.append('}');
            }
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }
}
