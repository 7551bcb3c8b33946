package io.kproxy.config.loader;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.StringReader;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.ParserImpl;

/**
 * The one place YAML text is read: Jackson's YAML factory whose parsers read through a
 * {@link CodePointReader} (linear in the text's length, unlike SnakeYAML's own reader) and refuse
 * what they cannot read faithfully.
 *
 * <ul>
 *   <li><b>Aliases</b> ({@code *name}) are refused. Jackson's streaming parser does not resolve
 *       them: it reported {@code namespace: *n} as the string {@code "n"}. Upstream
 *       ({@code sigs.k8s.io/yaml} over go-yaml) resolves them; kproxy refuses them instead, since
 *       configuration files and manifests rarely use them and resolving means expanding shared
 *       subtrees, which is what an alias bomb ("billion laughs") abuses. An anchor ({@code &name})
 *       without an alias changes nothing and is accepted.</li>
 *   <li><b>Merge keys</b> ({@code <<: ...}, plain, YAML 1.1) are refused for the same reason: they
 *       would otherwise be read as a field named {@code <<}. A quoted {@code "<<"} is an ordinary key.</li>
 * </ul>
 *
 * <p>Only {@link #createParser(String)} is supported: every caller has the whole text in memory,
 * already bounded by its size limit ({@link TextLimits}). Thread-safe as Jackson's factories are.
 */
final class StrictYamlFactory extends YAMLFactory {

    private static final long serialVersionUID = 1L;

    StrictYamlFactory(YAMLFactoryBuilder builder) {
        super(builder);
    }

    @Override
    public YAMLParser createParser(String content) {
        IOContext ctxt = _createContext(_createContentReference(content), true);
        LoaderOptions options = _loaderOptions == null ? new LoaderOptions() : _loaderOptions;
        return new Parser(ctxt, _parserFeatures, _yamlParserFeatures, new ParserImpl(new CodePointReader(content), options));
    }

    /** Jackson's YAML parser over a {@link CodePointReader}, refusing aliases and merge keys. */
    private static final class Parser extends YAMLParser {

        Parser(IOContext ctxt, int parserFeatures, int formatFeatures, ParserImpl events) {
            super(ctxt, parserFeatures, formatFeatures, null, new StringReader(""), events);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = super.nextToken();
            if (isCurrentAlias()) {
                throw refused("YAML aliases (*" + getText() + ") are not supported: write the value out in full");
            }
            if (t == JsonToken.FIELD_NAME && _lastEvent instanceof ScalarEvent key && key.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN
                    && "<<".equals(key.getValue())) {
                throw refused("YAML merge keys (<<) are not supported: write the fields out in full");
            }
            return t;
        }

        /** A parse error at the start of the refused token (not after it, where {@code _reportError} would put it). */
        private JsonParseException refused(String message) {
            return new JsonParseException(this, message, currentTokenLocation());
        }
    }
}
