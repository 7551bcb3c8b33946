package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ConfigException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * {@link CodePointReader} reads exactly as SnakeYAML's own reader: over seeded random texts
 * (YAML written from random trees, then mutated with YAML's significant characters, line breaks
 * of every kind, a byte order mark, characters outside the BMP and forbidden ones), the tokens,
 * values, and the line and column of every error are the same. Aliases, anchors and merge keys
 * are left out: only the strict factory refuses them. Along the way, {@link ConfigText}'s public
 * readers are fed each text (and variants that start like JSON or numbers): they refuse only with
 * a {@link ConfigException}.
 */
class CodePointReaderPropertyTest {

    private static final String ALPHABET = "ab0 9:-#\"'[]{},|>?\\\n\r\t.\u00e9\u2028\u0085\uFEFF\uD83D\uDE00\u0001!%@`~";

    private static final YAMLFactory SNAKE = YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final YAMLFactory LINEAR = new StrictYamlFactory(YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION));

    @Test
    void readsAsSnakeYamlDoes() {
        long seed = Long.getLong("kproxy.seed", System.nanoTime());
        Random random = new Random(seed);
        int errors = 0;
        for (int i = 0; i < 600; i++) {
            String text = mutate(random, ConfigText.toYaml(i % 4 == 0 ? large(random) : tree(random, 0)));
            String expected = outcome(SNAKE, text);
            String actual = outcome(LINEAR, text);
            if (text.codePoints().allMatch(StreamReader::isPrintable)) {
                // Past SnakeYAML's first 1 KiB chunk the two readers drop consumed text at different
                // times, so an error's quoted snippet may start elsewhere; its position and problem may not.
                assertThat(withoutSnippet(actual)).as("seed %d case %d text %s", seed, i, Json.of(text)).isEqualTo(withoutSnippet(expected));
                if (text.length() < 1000) {
                    assertThat(actual).as("seed %d case %d text %s", seed, i, Json.of(text)).isEqualTo(expected);
                }
            } else {
                // The linear reader refuses a forbidden character before anything else; SnakeYAML when it
                // loads the 1 KiB chunk holding it (so a syntax error in an earlier chunk may come first).
                assertThat(actual).as("seed %d case %d text %s", seed, i, Json.of(text)).startsWith("error")
                        .endsWith("special characters are not allowed");
                assertThat(expected).as("seed %d case %d text %s", seed, i, Json.of(text)).startsWith("error");
            }
            errors += expected.startsWith("error") ? 1 : 0;
            onlyTypedRefusals(seed, i, text);
        }
        // The mutations must reach the error paths too, or the comparison says little.
        assertThat(errors).as("seed %d", seed).isBetween(60, 560);
    }

    /** The public readers refuse any text only with a ConfigException (never another exception, never an error). */
    private static void onlyTypedRefusals(long seed, int i, String text) {
        for (String t : List.of(text, "{" + text, "0x" + text, "- 0b1_0" + text, ".5e" + text, "a: 0o" + text, "[1e400, " + text)) {
            try {
                ConfigText.parseAll(t);
                ConfigText.parse(t);
            } catch (ConfigException expected) {
                // a refusal with its line and column
            } catch (RuntimeException | Error e) {
                throw new AssertionError("seed " + seed + " case " + i + " text " + Json.of(t) + ": " + e, e);
            }
        }
    }

    private static String outcome(JsonFactory factory, String text) {
        List<Json> docs = new ArrayList<>();
        try (JsonParser p = factory.createParser(text)) {
            Values values = new Values(p, TextLimits.OBJECTS);
            for (JsonToken t = values.next(); t != null; t = values.next()) {
                docs.add(values.value(t));
            }
            return "docs " + docs;
        } catch (JsonProcessingException e) {
            return "error " + e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr() + " " + e.getOriginalMessage();
        } catch (ConfigException e) {
            return "error " + e.getMessage();
        } catch (Exception e) {
            return "error " + e.getClass().getSimpleName() + " " + e.getMessage();
        }
    }

    /** Many trees in one document (a few KiB to tens of KiB), some with long unbroken runs: the readers' refills. */
    private static Json large(Random r) {
        List<Json> items = new ArrayList<>();
        for (int i = 10 + r.nextInt(80); i > 0; i--) {
            items.add(r.nextInt(10) == 0 ? Json.of("q".repeat(500 + r.nextInt(3000))) : tree(r, 1));
        }
        return Json.obj("items", Json.arr(items));
    }

    private static String withoutSnippet(String outcome) {
        return outcome.lines().filter(l -> !l.startsWith(" ")).reduce("", (a, b) -> a + b + "\n");
    }

    private static Json tree(Random r, int depth) {
        int kind = depth > 3 ? 2 + r.nextInt(3) : r.nextInt(5);
        return switch (kind) {
            case 0 -> {
                Json.Obj o = Json.Obj.EMPTY;
                for (int i = r.nextInt(4); i > 0; i--) {
                    o = o.with(word(r), tree(r, depth + 1));
                }
                yield o;
            }
            case 1 -> {
                List<Json> items = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) {
                    items.add(tree(r, depth + 1));
                }
                yield Json.arr(items);
            }
            case 2 -> Json.of(r.nextInt(2000) - 1000L);
            case 3 -> Json.of(r.nextBoolean());
            default -> Json.of(r.nextInt(4) == 0 ? word(r) + "\n" + word(r) + " \t" + word(r) : word(r));
        };
    }

    private static String word(Random r) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1 + r.nextInt(12); i > 0; i--) {
            sb.append(r.nextInt(8) == 0 ? ALPHABET.charAt(r.nextInt(ALPHABET.length())) : (char) ('a' + r.nextInt(26)));
        }
        return sb.toString().replace("*", "").replace("&", "").replace("<<", "");
    }

    /** Up to four random insertions, deletions or replacements of significant characters (none half a surrogate pair). */
    private static String mutate(Random r, String text) {
        StringBuilder sb = new StringBuilder(text);
        for (int i = r.nextInt(5); i > 0 && !sb.isEmpty(); i--) {
            int at = r.nextInt(sb.length());
            if (Character.isLowSurrogate(sb.charAt(at))) {
                continue;
            }
            String c = pick(r);
            switch (r.nextInt(3)) {
                case 0 -> sb.insert(at, c);
                case 1 -> sb.deleteCharAt(at);
                default -> sb.replace(at, at + 1, c);
            }
            if (at < sb.length() && Character.isLowSurrogate(sb.charAt(at)) && (at == 0 || !Character.isHighSurrogate(sb.charAt(at - 1)))) {
                sb.deleteCharAt(at);
            }
        }
        return sb.toString();
    }

    private static String pick(Random r) {
        int i = r.nextInt(ALPHABET.length());
        return Character.isHighSurrogate(ALPHABET.charAt(i)) ? ALPHABET.substring(i, i + 2)
                : Character.isLowSurrogate(ALPHABET.charAt(i)) ? "x" : String.valueOf(ALPHABET.charAt(i));
    }
}
