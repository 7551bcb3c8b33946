package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigException;
import io.kproxy.model.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigTextTest {

    @Test
    void yamlKeepsKeyOrderAndNumberKinds() {
        Json doc = ConfigText.parse("b: 1\na: 2.5\nc: \"3\"\nd: [x, 9223372036854775807]\ne: null\nf: true\ng: 99999999999999999999\n");
        Json.Obj o = (Json.Obj) doc;
        assertThat(o.fields().keySet()).containsExactly("b", "a", "c", "d", "e", "f", "g");
        assertThat(o.fields().get("b")).isEqualTo(Json.of(1));
        assertThat(o.fields().get("a")).isEqualTo(new Json.Dec(2.5));
        assertThat(o.fields().get("c")).isEqualTo(Json.of("3"));
        assertThat(o.fields().get("d")).isEqualTo(Json.arr(Json.of("x"), Json.of(Long.MAX_VALUE)));
        assertThat(o.fields().get("e")).isEqualTo(Json.Null.INSTANCE);
        assertThat(o.fields().get("f")).isEqualTo(Json.of(true));
        assertThat(o.fields().get("g")).isEqualTo(new Json.Dec(1e20));
    }

    @Test
    void jsonIsReadAsJson() {
        Json doc = ConfigText.parse("  {\"kind\": \"Service\", \"spec\": {\"ports\": [{\"port\": 80}]}, \"x\": 1.0}");
        assertThat(doc).isEqualTo(Json.obj("kind", Json.of("Service"),
                "spec", Json.obj("ports", Json.arr(Json.obj("port", Json.of(80)))), "x", new Json.Dec(1.0)));
    }

    @Test
    void yamlFlowStyleThatLooksLikeJsonIsStillRead() {
        assertThat(ConfigText.parse("{kind: Service, spec: {ports: [80]}}"))
                .isEqualTo(Json.obj("kind", Json.of("Service"), "spec", Json.obj("ports", Json.arr(Json.of(80)))));
        assertThat(ConfigText.parseAll("[a, b]")).containsExactly(Json.arr(Json.of("a"), Json.of("b")));
    }

    @Test
    void unquotedIpv6AllZerosNeedsQuotesAsUpstreamSays() {
        // cmd/kube-proxy/app/options_test.go TestLoadConfigFailures "Missing quotes around :: bindAddress".
        assertThatThrownBy(() -> ConfigText.parse("bindAddress: ::"))
                .isInstanceOfSatisfying(ConfigException.class, e -> {
                    assertThat(e.line()).hasValue(1);
                    assertThat(e.column()).isPresent();
                })
                .hasMessageContaining("mapping values are not allowed");
        assertThat(ConfigText.parse("bindAddress: ::0")).isEqualTo(Json.obj("bindAddress", Json.of("::0")));
        assertThat(ConfigText.parse("bindAddress: \"::\"")).isEqualTo(Json.obj("bindAddress", Json.of("::")));
    }

    @Test
    void syntaxErrorsCarryLineAndColumn() {
        assertThatThrownBy(() -> ConfigText.parse("a: 1\nb: [1, 2\nc: 3\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).hasValue(3))
                .hasMessageStartingWith("syntax error at line 3, column ");
        // Neither JSON nor YAML flow style: the JSON error is reported.
        assertThatThrownBy(() -> ConfigText.parse("{\"a\": 1 \"b\": 2}"))
                .isInstanceOfSatisfying(ConfigException.class, e -> {
                    assertThat(e.line()).hasValue(1);
                    assertThat(e.column()).hasValue(9);
                })
                .hasMessageContaining("was expecting comma");
        // YAML flow style allows a trailing comma (so does upstream's YAML-to-JSON decoding).
        assertThat(ConfigText.parse("{\"a\": 1,}")).isEqualTo(Json.obj("a", Json.of(1)));
    }

    @Test
    void duplicateKeysAreSyntaxErrors() {
        assertThatThrownBy(() -> ConfigText.parse("bindAddress: 1.2.3.4\nmode: ipvs\nbindAddress: 9.8.7.6\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).hasValue(3))
                .hasMessageContaining("Duplicate field 'bindAddress'");
        assertThatThrownBy(() -> ConfigText.parse("{\"a\": {\"b\": 1, \"b\": 2}}")).isInstanceOf(ConfigException.class);
    }

    @Test
    void oneDocumentOnlyForParse() {
        assertThatThrownBy(() -> ConfigText.parse("a: 1\n---\nb: 2\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line()).hasValue(3))
                .hasMessageContaining("expected one document");
        assertThat(ConfigText.parse("")).isEqualTo(Json.Null.INSTANCE);
        assertThat(ConfigText.parse("# only a comment\n")).isEqualTo(Json.Null.INSTANCE);
    }

    @Test
    void multiDocumentYamlSkipsEmptyDocuments() {
        List<Json> docs = ConfigText.parseAll("---\nkind: Service\n---\n---\nkind: EndpointSlice\n---\n");
        assertThat(docs).containsExactly(Json.obj("kind", Json.of("Service")), Json.obj("kind", Json.of("EndpointSlice")));
        assertThat(ConfigText.parseAll("")).isEmpty();
    }

    @Test
    void multiDocumentJsonIsValuesOneAfterTheOther() {
        List<Json> docs = ConfigText.parseAll("{\"kind\": \"A\"}\n{\"kind\": \"B\"}");
        assertThat(docs).containsExactly(Json.obj("kind", Json.of("A")), Json.obj("kind", Json.of("B")));
    }

    @Test
    void documentsLargerThanSnakeYamlsDefaultLimitAreRead() {
        // Many strings, each within TextLimits.OBJECTS' string limit, together over SnakeYAML's 3 Mi code points.
        String value = "y".repeat(200);
        String text = "kind: List\nitems:\n" + ("- " + value + "\n").repeat(16_000);
        assertThat(text.length()).isGreaterThan(3 * 1024 * 1024);
        assertThat(ConfigText.parseAll(text)).singleElement()
                .satisfies(doc -> assertThat(((Json.Obj) doc).array("items")).hasSize(16_000).allMatch(Json.of(value)::equals));
    }

    @Test
    void listKindIsOneDocument() {
        List<Json> docs = ConfigText.parseAll("kind: List\nitems:\n- kind: Service\n- kind: Service\n");
        assertThat(docs).hasSize(1);
    }

    @Test
    void syntaxErrorInALaterDocumentPointsThere() {
        assertThatThrownBy(() -> ConfigText.parseAll("a: 1\n---\nb: 2\n---\nc: [\n"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.line().getAsInt()).isGreaterThanOrEqualTo(5));
    }

    @Test
    void writersRoundTrip() {
        Json doc = Json.obj("s", Json.of("12"), "t", Json.of("true"), "n", Json.of("null"), "z", Json.of(""), "v6", Json.of("::"),
                "d", Json.of("15m0s"), "i", Json.of(-7), "f", new Json.Dec(0.25), "b", Json.of(false), "nil", Json.Null.INSTANCE,
                "arr", Json.arr(Json.obj(), Json.arr(), Json.of("x y")), "hex", Json.of("0x1F"), "yes", Json.of("yes"));
        assertThat(ConfigText.parse(ConfigText.toYaml(doc))).isEqualTo(doc);
        assertThat(ConfigText.parse(ConfigText.toJson(doc))).isEqualTo(doc);
        assertThat(ConfigText.toJson(Json.obj("a", Json.of(1)))).isEqualTo("{\"a\":1}");
    }
}
