package io.kproxy.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.kproxy.model.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * YAML or JSON text to {@link Json} trees and back, for configuration files and Kubernetes object
 * files. Text whose first non-blank character is <code>{</code> or <code>[</code> is read as JSON
 * (falling back to YAML flow style), anything else as YAML. Object keys keep their order; integers that fit in 64 bits become
 * {@link Json.Int}, other numbers {@link Json.Dec}; a duplicate key is a syntax error (as
 * upstream's strict decoding). Errors are {@link ConfigException}s with the 1-based line and column.
 *
 * <p>Stateless and thread-safe; the methods do no I/O beyond the given string.
 */
public final class ConfigText {

    private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    /**
     * SnakeYAML refuses documents over 3 Mi code points by default; a {@code kind: List} object file
     * can be larger, so allow 128 Mi (aliases stay limited by SnakeYAML's defaults).
     */
    private static final int YAML_CODE_POINT_LIMIT = 128 * 1024 * 1024;

    private static final YAMLFactory YAML = YAMLFactory.builder().loaderOptions(loaderOptions())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build();

    private ConfigText() {
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(YAML_CODE_POINT_LIMIT);
        return options;
    }

    /**
     * Parses text holding exactly one document. Empty text (or an empty YAML document) gives
     * {@link Json.Null}.
     *
     * @throws ConfigException on a syntax error, or when the text holds more than one document
     */
    public static Json parse(String text) {
        return read(text, ConfigText::one);
    }

    /**
     * Parses text holding any number of documents: YAML documents separated by {@code ---}, or
     * JSON values one after the other. Empty (and {@code null}) documents are skipped, so a
     * trailing {@code ---} is harmless. A {@code kind: List} is returned as one document.
     *
     * @throws ConfigException on a syntax error
     */
    public static List<Json> parseAll(String text) {
        return read(text, ConfigText::all);
    }

    private static Json one(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            return Json.Null.INSTANCE;
        }
        Json doc = emptyAsNull(value(p, t));
        if (p.nextToken() != null) {
            JsonLocation at = p.currentTokenLocation();
            throw ConfigException.syntax(line(at), column(at), "expected one document, found more (use the multi-document reader)");
        }
        return doc;
    }

    private static List<Json> all(JsonParser p) throws IOException {
        List<Json> docs = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
            Json doc = emptyAsNull(value(p, t));
            if (!(doc instanceof Json.Null)) {
                docs.add(doc);
            }
        }
        return List.copyOf(docs);
    }

    private interface Reader<T> {
        T read(JsonParser p) throws IOException;
    }

    /**
     * Text that starts like JSON is read as JSON; if that fails it may still be YAML flow style
     * (<code>{a: 1}</code>), so it is read again as YAML, and the JSON error is reported only when
     * YAML cannot read it either.
     */
    private static <T> T read(String text, Reader<T> reader) {
        if (!startsLikeJson(text)) {
            return read(YAML, text, reader);
        }
        try {
            return read(JSON, text, reader);
        } catch (ConfigException jsonError) {
            try {
                return read(YAML, text, reader);
            } catch (ConfigException yamlError) {
                throw jsonError;
            }
        }
    }

    private static <T> T read(JsonFactory factory, String text, Reader<T> reader) {
        try (JsonParser p = factory.createParser(text)) {
            return reader.read(p);
        } catch (JsonProcessingException e) {
            throw syntax(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compact JSON text of {@code json}. */
    public static String toJson(Json json) {
        return write(JSON, json);
    }

    /** Block-style YAML text of {@code json} (no document marker); strings that would read back as numbers, booleans or null are quoted. */
    public static String toYaml(Json json) {
        return write(YAML, json);
    }

    private static boolean startsLikeJson(String text) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i < text.length() && (text.charAt(i) == '{' || text.charAt(i) == '[');
    }

    private static Json value(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case START_OBJECT -> {
                Map<String, Json> fields = new LinkedHashMap<>();
                for (JsonToken k = p.nextToken(); k != JsonToken.END_OBJECT; k = p.nextToken()) {
                    String key = p.currentName();
                    fields.put(key, value(p, p.nextToken()));
                }
                yield new Json.Obj(fields);
            }
            case START_ARRAY -> {
                List<Json> items = new ArrayList<>();
                for (JsonToken v = p.nextToken(); v != JsonToken.END_ARRAY; v = p.nextToken()) {
                    items.add(value(p, v));
                }
                yield Json.arr(items);
            }
            case VALUE_STRING -> new Json.Str(p.getText());
            case VALUE_NUMBER_INT -> p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? new Json.Dec(p.getDoubleValue())
                    : new Json.Int(p.getLongValue());
            case VALUE_NUMBER_FLOAT -> decimal(p);
            case VALUE_TRUE -> Json.Bool.TRUE;
            case VALUE_FALSE -> Json.Bool.FALSE;
            case VALUE_NULL -> Json.Null.INSTANCE;
            case VALUE_EMBEDDED_OBJECT -> new Json.Str(p.getText());
            default -> {
                JsonLocation at = p.currentTokenLocation();
                throw ConfigException.syntax(line(at), column(at), "unexpected " + t);
            }
        };
    }

    /** Jackson reports an empty YAML document (e.g. after a trailing {@code ---}) as an empty string. */
    private static Json emptyAsNull(Json doc) {
        return doc instanceof Json.Str(String v) && v.isEmpty() ? Json.Null.INSTANCE : doc;
    }

    private static Json decimal(JsonParser p) throws IOException {
        double d = p.getDoubleValue();
        if (!Double.isFinite(d)) {
            JsonLocation at = p.currentTokenLocation();
            throw ConfigException.syntax(line(at), column(at), "number " + p.getText() + " is not finite");
        }
        return new Json.Dec(d);
    }

    private static String write(JsonFactory factory, Json json) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = factory.createGenerator(out)) {
            write(g, json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, Json json) throws IOException {
        switch (json) {
            case Json.Obj(Map<String, Json> fields) -> {
                g.writeStartObject();
                for (Map.Entry<String, Json> e : fields.entrySet()) {
                    g.writeFieldName(e.getKey());
                    write(g, e.getValue());
                }
                g.writeEndObject();
            }
            case Json.Arr(List<Json> items) -> {
                g.writeStartArray();
                for (Json item : items) {
                    write(g, item);
                }
                g.writeEndArray();
            }
            case Json.Str(String s) -> g.writeString(s);
            case Json.Int(long v) -> g.writeNumber(v);
            case Json.Dec(double v) -> g.writeNumber(v);
            case Json.Bool(boolean b) -> g.writeBoolean(b);
            case Json.Null n -> g.writeNull();
        }
    }

    private static ConfigException syntax(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return ConfigException.syntax(line(at), column(at), problem(e.getOriginalMessage()));
    }

    /**
     * SnakeYAML's messages repeat the position and quote the source under the problem; keep the
     * problem lines only ("while parsing a flow sequence; expected ',' or ']', but got :").
     */
    private static String problem(String message) {
        if (message == null || message.isBlank()) {
            return "malformed document";
        }
        StringBuilder sb = new StringBuilder();
        for (String line : message.split("\\R")) {
            if (line.isBlank() || Character.isWhitespace(line.charAt(0))) {
                continue;
            }
            sb.append(sb.isEmpty() ? "" : "; ").append(line.strip());
        }
        return sb.isEmpty() ? message.strip() : sb.toString();
    }

    private static int line(JsonLocation at) {
        return at == null ? 1 : Math.max(1, at.getLineNr());
    }

    private static int column(JsonLocation at) {
        return at == null ? 1 : Math.max(1, at.getColumnNr());
    }
}
