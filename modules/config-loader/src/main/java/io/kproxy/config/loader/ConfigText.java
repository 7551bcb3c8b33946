package io.kproxy.config.loader;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.kproxy.config.ConfigException;
import io.kproxy.config.FieldError;
import io.kproxy.config.JsonText;
import io.kproxy.model.Json;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * YAML or JSON text to {@link Json} trees and back, for configuration files and Kubernetes object
 * files. Text whose first non-blank character is <code>{</code> or <code>[</code> is read as JSON
 * (falling back to YAML flow style), anything else as YAML. Object keys keep their order; integers that fit in 64 bits become
 * {@link Json.Int}, other numbers {@link Json.Dec}; a duplicate key is a syntax error (as
 * upstream's strict decoding). YAML aliases and merge keys are refused ({@link StrictYamlFactory}).
 * Every read is bounded by {@link TextLimits}: the text's length, each string's length, each
 * number's length and the nesting depth; reading costs time and memory linear in the text.
 * Errors are {@link ConfigException}s with the 1-based line and column.
 *
 * <p>Stateless and thread-safe; the methods do no I/O beyond the given string.
 */
public final class ConfigText {

    private static final JsonFactory JSON = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private static final YAMLFactory YAML = new StrictYamlFactory(YAMLFactory.builder().loaderOptions(loaderOptions())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));

    private ConfigText() {
    }

    /** The text's length is bounded by {@link TextLimits} before SnakeYAML sees it; its own document limit (3 Mi code points) would refuse an objects file. */
    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return options;
    }

    /**
     * Parses text holding exactly one document, within {@link TextLimits#CONFIG}. Empty text (or
     * an empty YAML document) gives {@link Json.Null}.
     *
     * @throws ConfigException on a syntax error, a limit exceeded, or when the text holds more than one document
     */
    public static Json parse(String text) {
        return parse(text, TextLimits.CONFIG);
    }

    /** As {@link #parse(String)}, within {@code limits}. */
    public static Json parse(String text, TextLimits limits) {
        return read(text, limits, ConfigText::one);
    }

    /**
     * Parses text holding any number of documents: YAML documents separated by {@code ---}, or
     * JSON values one after the other. Empty (and {@code null}) documents are skipped, so a
     * trailing {@code ---} is harmless. A {@code kind: List} is returned as one document. Within
     * {@link TextLimits#OBJECTS}.
     *
     * @throws ConfigException on a syntax error or a limit exceeded
     */
    public static List<Json> parseAll(String text) {
        return parseAll(text, TextLimits.OBJECTS);
    }

    /** As {@link #parseAll(String)}, within {@code limits}. */
    public static List<Json> parseAll(String text, TextLimits limits) {
        return read(text, limits, ConfigText::all);
    }

    private static Json one(Values p) throws IOException {
        JsonToken t = p.next();
        if (t == null) {
            return Json.Null.INSTANCE;
        }
        Json doc = emptyAsNull(p.value(t));
        if (p.next() != null) {
            JsonLocation at = p.location();
            throw ConfigException.syntax(line(at), column(at), "expected one document, found more (use the multi-document reader)");
        }
        return doc;
    }

    private static List<Json> all(Values p) throws IOException {
        List<Json> docs = new ArrayList<>();
        for (JsonToken t = p.next(); t != null; t = p.next()) {
            Json doc = emptyAsNull(p.value(t));
            if (!(doc instanceof Json.Null)) {
                docs.add(doc);
            }
        }
        return List.copyOf(docs);
    }

    private interface Reader<T> {
        T read(Values p) throws IOException;
    }

    /**
     * Text that starts like JSON is read as JSON; if that fails it may still be YAML flow style
     * (<code>{a: 1}</code>), so it is read again as YAML, and the JSON error is reported only when
     * YAML cannot read it either.
     */
    private static <T> T read(String text, TextLimits limits, Reader<T> reader) {
        if (text.length() > limits.maxFileBytes()) {
            throw new ConfigException(List.of(new FieldError("", "", "the text is " + text.length() + " characters long, more than the limit of "
                    + limits.maxFileBytes())));
        }
        if (!startsLikeJson(text)) {
            return read(YAML, text, limits, reader);
        }
        try {
            return read(JSON, text, limits, reader);
        } catch (ConfigException jsonError) {
            try {
                return read(YAML, text, limits, reader);
            } catch (ConfigException yamlError) {
                throw jsonError;
            }
        }
    }

    private static <T> T read(JsonFactory factory, String text, TextLimits limits, Reader<T> reader) {
        try (JsonParser p = factory.createParser(text)) {
            return reader.read(new Values(p, limits));
        } catch (JsonProcessingException e) {
            throw syntax(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Compact JSON text of {@code json} ({@link JsonText}, which writes what Jackson's generator would). */
    public static String toJson(Json json) {
        return JsonText.write(json);
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

    /** Jackson reports an empty YAML document (e.g. after a trailing {@code ---}) as an empty string. */
    private static Json emptyAsNull(Json doc) {
        return doc instanceof Json.Str(String v) && v.isEmpty() ? Json.Null.INSTANCE : doc;
    }

    /** {@code json} written by {@code factory}'s generator (package-private: {@code JsonTextTest} compares {@link JsonText} with it). */
    static String write(JsonFactory factory, Json json) {
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

    static int line(JsonLocation at) {
        return at == null ? 1 : Math.max(1, at.getLineNr());
    }

    static int column(JsonLocation at) {
        return at == null ? 1 : Math.max(1, at.getColumnNr());
    }
}
