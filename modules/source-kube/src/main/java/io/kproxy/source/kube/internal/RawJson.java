package io.kproxy.source.kube.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import io.kproxy.model.InvalidValueException;
import io.kproxy.model.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@link Json} trees straight from a Jackson token stream, and the Jackson glue that makes
 * {@link RawObject}s of them. (The configuration reader, {@code io.kproxy.config.loader.ConfigText},
 * walks tokens the same way with other rules: it keeps nulls, refuses non-finite numbers and
 * reports errors by line and column.)
 *
 * <p>The trees equal what the typed model's round trip made of the same response (the source
 * recorded {@code convertValue(typedObject)} before, and restarts compare fingerprints with what
 * the log holds): object fields whose value is {@code null} and empty arrays are left out (fabric8's
 * model writes neither), integral numbers that fit in 64 bits become {@link Json.Int}, every
 * other number {@link Json.Dec}, and an object that lacks {@code apiVersion} or {@code kind}
 * (items of a list response carry neither) gets its class's at the front. Key order is the
 * server's. A key that occurs twice keeps its last value, as Jackson does.
 *
 * <p>Pure functions and stateless Jackson handlers; thread-safe.
 */
public final class RawJson {

    private RawJson() {
    }

    /** The JSON value at the parser's current token (advanced past it to its last token). */
    public static Json read(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t == null) {
            t = p.nextToken();
            if (t == null) {
                throw new IOException("no JSON value at " + p.currentLocation());
            }
        }
        return switch (t) {
            case START_OBJECT -> object(p);
            case START_ARRAY -> array(p);
            case VALUE_STRING -> new Json.Str(p.getText());
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? new Json.Dec(p.getDoubleValue())
                    : new Json.Int(p.getLongValue());
            case VALUE_NUMBER_FLOAT -> new Json.Dec(p.getDoubleValue());
            case VALUE_TRUE -> Json.Bool.TRUE;
            case VALUE_FALSE -> Json.Bool.FALSE;
            case VALUE_NULL -> Json.Null.INSTANCE;
            case VALUE_EMBEDDED_OBJECT -> embedded(p.getEmbeddedObject());
            default -> throw new IOException("unexpected JSON token " + t + " at " + p.currentLocation());
        };
    }

    private static Json.Obj object(JsonParser p) throws IOException {
        String[] keys = new String[8];
        Json[] values = new Json[8];
        int n = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
            if (t != JsonToken.FIELD_NAME) {
                throw new IOException("expected a field name, got " + t + " at " + p.currentLocation());
            }
            String key = p.currentName();
            p.nextToken();
            Json value = read(p);
            if (omitted(value)) {
                continue;
            }
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, n * 2);
                values = Arrays.copyOf(values, n * 2);
            }
            keys[n] = key;
            values[n] = value;
            n++;
        }
        String[] k = n == keys.length ? keys : Arrays.copyOf(keys, n);
        Json[] v = n == values.length ? values : Arrays.copyOf(values, n);
        try {
            return Json.Obj.ofOwnedArrays(k, v);
        } catch (InvalidValueException duplicateKey) {
            Map<String, Json> lastWins = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                lastWins.remove(k[i]);
                lastWins.put(k[i], v[i]);
            }
            return new Json.Obj(lastWins);
        }
    }

    private static Json.Arr array(JsonParser p) throws IOException {
        List<Json> items = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            items.add(read(p));
        }
        return new Json.Arr(items);
    }

    /** What fabric8's model leaves out when it writes an object: null fields and empty arrays. */
    private static boolean omitted(Json value) {
        return value instanceof Json.Null || value instanceof Json.Arr(List<Json> items) && items.isEmpty();
    }

    private static Json embedded(Object value) {
        return switch (value) {
            case null -> Json.Null.INSTANCE;
            case byte[] bytes -> new Json.Str(Base64.getEncoder().encodeToString(bytes));
            default -> new Json.Str(value.toString());
        };
    }

    /** {@code tree} with {@code apiVersion} and {@code kind} first when it lacks them. */
    static Json.Obj withTypeMeta(Json.Obj tree, String apiVersion, String kind) {
        boolean hasVersion = tree.fields().containsKey("apiVersion");
        boolean hasKind = tree.fields().containsKey("kind");
        if (hasVersion && hasKind) {
            return tree;
        }
        Map<String, Json> out = new LinkedHashMap<>();
        if (!hasVersion) {
            out.put("apiVersion", new Json.Str(apiVersion));
        }
        if (!hasKind) {
            out.put("kind", new Json.Str(kind));
        }
        out.putAll(tree.fields());
        return new Json.Obj(out);
    }

    /**
     * Makes a {@link RawObject} of the subclass Jackson asks for. Jackson creates it with the
     * no-argument constructor, then asks for a copy bound to the target class.
     */
    public static final class Deserializer extends JsonDeserializer<RawObject> implements ContextualDeserializer {
        private final Class<?> type;

        public Deserializer() {
            this(null);
        }

        private Deserializer(Class<?> type) {
            this.type = type;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
            JavaType target = ctxt.getContextualType();
            if (target == null && property != null) {
                target = property.getType();
            }
            if (target == null || !RawObject.class.isAssignableFrom(target.getRawClass())
                    || target.getRawClass() == RawObject.class) {
                return this;
            }
            return new Deserializer(target.getRawClass());
        }

        @Override
        public RawObject deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (type == null) {
                throw new IOException("a raw API object needs a concrete class (RawService, RawEndpointSlice, RawNode or RawServiceCidr)");
            }
            Json tree = read(p);
            if (!(tree instanceof Json.Obj obj)) {
                throw new IOException("expected a JSON object for " + type.getSimpleName() + " at " + p.currentLocation());
            }
            RawObject out = RawObject.empty(type);
            return out.withJson(withTypeMeta(obj, out.getApiVersion(), out.getKind()));
        }
    }
}
