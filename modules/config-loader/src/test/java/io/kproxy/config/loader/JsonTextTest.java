package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import io.kproxy.config.JsonText;
import io.kproxy.model.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The configuration core writes JSON text without Jackson ({@link JsonText}); {@link ConfigText#toJson}
 * (what {@code /configz} and the admin protocol send) used Jackson's generator, so the core's text
 * must be byte for byte what Jackson writes. Seeded random trees; the seed is in the message.
 */
class JsonTextTest {

    private static final JsonFactory JACKSON = new JsonFactory();

    @Test
    void writesWhatJacksonsGeneratorWrites() {
        long seed = new Random().nextLong();
        Random rnd = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            Json tree = tree(rnd, 0);
            assertThat(JsonText.write(tree)).as("seed %d", seed).isEqualTo(jackson(tree));
        }
    }

    @Test
    void everyCharacterBelowTheFirstSurrogateIsWrittenAsJacksonWritesIt() {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0xD800; c++) {
            all.append(c);
        }
        Json s = Json.of(all.toString());
        assertThat(JsonText.write(s)).isEqualTo(jackson(s));
        assertThat(JsonText.write(Json.obj("a\u0001\"", Json.of("\\\b\f\u007f\u2028")))).isEqualTo("{\"a\\u0001\\\"\":\"\\\\\\b\\f\u007f\u2028\"}");
    }

    private static String jackson(Json json) {
        return ConfigText.write(JACKSON, json);
    }

    private static Json tree(Random rnd, int depth) {
        int kind = rnd.nextInt(depth >= 3 ? 6 : 8);
        return switch (kind) {
            case 0 -> Json.of(text(rnd));
            case 1 -> Json.of(rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(1000) - 500);
            case 2 -> new Json.Dec(switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextDouble();
                case 1 -> Double.longBitsToDouble(rnd.nextLong() & 0x7FEF_FFFF_FFFF_FFFFL);
                case 2 -> rnd.nextInt(100) / 10.0;
                default -> -rnd.nextDouble() * 1e21;
            });
            case 3 -> rnd.nextBoolean() ? Json.Bool.TRUE : Json.Bool.FALSE;
            case 4, 5 -> Json.Null.INSTANCE;
            case 6 -> {
                Map<String, Json> m = new LinkedHashMap<>();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    m.put(text(rnd), tree(rnd, depth + 1));
                }
                yield new Json.Obj(m);
            }
            default -> {
                List<Json> items = new ArrayList<>();
                for (int i = rnd.nextInt(4); i > 0; i--) {
                    items.add(tree(rnd, depth + 1));
                }
                yield new Json.Arr(items);
            }
        };
    }

    /** Mostly printable, with controls, quotes, backslashes, non-ASCII and astral characters. */
    private static String text(Random rnd) {
        StringBuilder b = new StringBuilder();
        for (int i = rnd.nextInt(12); i > 0; i--) {
            switch (rnd.nextInt(6)) {
                case 0 -> b.append((char) rnd.nextInt(0x20));
                case 1 -> b.append("\"\\/".charAt(rnd.nextInt(3)));
                case 2 -> b.append((char) (0x7F + rnd.nextInt(0x800)));
                case 3 -> b.appendCodePoint(0x1F600 + rnd.nextInt(50));
                default -> b.append((char) ('a' + rnd.nextInt(26)));
            }
        }
        return b.toString();
    }
}
