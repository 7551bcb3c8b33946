package io.kproxy.source.kube.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helper: Jackson trees to {@link Json} trees (how the source converted fabric8's typed objects
 * before {@link RawJson}): object key order kept, integral numbers that fit in 64
 * bits as {@link Json.Int}, every other number as {@link Json.Dec}. Pure and thread-safe.
 */
final class JsonTrees {

    private JsonTrees() {
    }

    /** {@code node} as a JSON object. */
    public static Json.Obj toObject(JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("expected a JSON object, got " + node.getNodeType());
        }
        return (Json.Obj) toJson(node);
    }

    /** {@code node} as a JSON value (missing nodes become {@code null}). */
    public static Json toJson(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> {
                Map<String, Json> fields = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    fields.put(e.getKey(), toJson(e.getValue()));
                }
                yield new Json.Obj(fields);
            }
            case ARRAY -> {
                List<Json> items = new ArrayList<>(node.size());
                for (JsonNode item : node) {
                    items.add(toJson(item));
                }
                yield new Json.Arr(items);
            }
            case STRING -> new Json.Str(node.textValue());
            case NUMBER -> node.isIntegralNumber() && node.canConvertToLong()
                    ? new Json.Int(node.longValue())
                    : new Json.Dec(node.doubleValue());
            case BOOLEAN -> Json.of(node.booleanValue());
            case NULL, MISSING -> Json.Null.INSTANCE;
            // Base64 text, as Jackson would write it; POJO nodes do not occur in trees built by
            // convertValue, and their text form is the closest faithful value.
            case BINARY, POJO -> new Json.Str(node.asText());
        };
    }
}
