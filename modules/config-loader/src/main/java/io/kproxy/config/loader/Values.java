package io.kproxy.config.loader;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kproxy.config.ConfigException;
import io.kproxy.model.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jackson tokens (from the JSON or the YAML parser) to {@link Json} values, within
 * {@link TextLimits}: a string or key longer than {@code maxScalarChars}, a number longer than
 * {@code maxNumberChars} (converting a long digit string is quadratic) or nesting deeper than
 * {@code maxDepth} is a syntax error at its position; the recursion is bounded by the depth limit.
 * Not thread-safe (one parse).
 */
final class Values {

    private final JsonParser p;
    private final TextLimits limits;

    Values(JsonParser p, TextLimits limits) {
        this.p = p;
        this.limits = limits;
    }

    JsonToken next() throws IOException {
        return p.nextToken();
    }

    JsonLocation location() {
        return p.currentTokenLocation();
    }

    /** The value that starts with {@code t}, at depth 0. */
    Json value(JsonToken t) throws IOException {
        return value(t, 0);
    }

    private Json value(JsonToken t, int depth) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                deeper(depth);
                Map<String, Json> fields = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                    String key = scalar(p.currentName(), "key");
                    fields.put(key, value(p.nextToken(), depth + 1));
                }
                yield new Json.Obj(fields);
            }
            case START_ARRAY -> {
                deeper(depth);
                List<Json> items = new ArrayList<>();
                for (JsonToken v = p.nextToken(); v != JsonToken.END_ARRAY; v = p.nextToken()) {
                    items.add(value(v, depth + 1));
                }
                yield Json.arr(items);
            }
            case VALUE_STRING, VALUE_EMBEDDED_OBJECT -> new Json.Str(scalar(p.getText(), "string"));
            case VALUE_NUMBER_INT -> {
                number();
                yield p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? new Json.Dec(p.getDoubleValue()) : new Json.Int(p.getLongValue());
            }
            case VALUE_NUMBER_FLOAT -> decimal();
            case VALUE_TRUE -> Json.Bool.TRUE;
            case VALUE_FALSE -> Json.Bool.FALSE;
            case VALUE_NULL -> Json.Null.INSTANCE;
            default -> throw refused("unexpected " + t);
        };
    }

    private void deeper(int depth) {
        if (depth >= limits.maxDepth()) {
            throw refused("nested more than " + limits.maxDepth() + " levels deep");
        }
    }

    private String scalar(String text, String what) {
        if (text.length() > limits.maxScalarChars()) {
            throw refused("a " + what + " of " + text.length() + " characters, more than the limit of " + limits.maxScalarChars());
        }
        return text;
    }

    private void number() throws IOException {
        int length = p.getTextLength();
        if (length > limits.maxNumberChars()) {
            throw refused("a number of " + length + " characters, more than the limit of " + limits.maxNumberChars());
        }
    }

    private Json decimal() throws IOException {
        number();
        double d = p.getDoubleValue();
        if (!Double.isFinite(d)) {
            throw refused("number " + p.getText() + " is not finite");
        }
        return new Json.Dec(d);
    }

    private ConfigException refused(String reason) {
        JsonLocation at = p.currentTokenLocation();
        return ConfigException.syntax(ConfigText.line(at), ConfigText.column(at), reason);
    }
}
