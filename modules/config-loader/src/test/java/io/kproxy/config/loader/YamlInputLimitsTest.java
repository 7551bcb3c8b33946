package io.kproxy.config.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.config.ConfigException;
import io.kproxy.model.Json;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 18, defect 5: input that costs too much. A 2 MiB YAML scalar took 2.1 s and 3 GB of heap
 * (SnakeYAML's reader copies the unread window at each 1 KiB refill: quadratic); now reading is
 * linear ({@link CodePointReader}) and bounded by {@link TextLimits}.
 */
class YamlInputLimitsTest {

    private static final String HEADER = "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  annotations:\n    big: ";

    /** Bytes the current thread allocated while running {@code body}. */
    static long allocated(Runnable body) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        body.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void aScalarJustUnderTheObjectLimitIsReadInLinearTimeAndMemory() {
        String value = "a".repeat(TextLimits.OBJECTS.maxScalarChars() - 16);
        String text = HEADER + value + "\n";
        long start = System.nanoTime();
        long bytes = allocated(() -> {
            List<Json> docs = ConfigText.parseAll(text);
            assertThat(docs.getFirst()).isInstanceOf(Json.Obj.class);
            assertThat(((Json.Obj) docs.getFirst()).object("metadata").object("annotations").string("big")).contains(value);
        });
        // SnakeYAML's own reader copied about 2 * n^2 / 1024 bytes for this scalar (2 GB); linear reading is a few dozen times n.
        assertThat(bytes).as("bytes allocated").isLessThan(64L * text.length());
        assertThat(System.nanoTime() - start).as("nanoseconds").isLessThan(5_000_000_000L);
    }

    @ParameterizedTest(name = "{0} MiB")
    @ValueSource(ints = {2, 4})
    void aScalarOverTheLimitIsRefusedWithItsPositionAndLength(int mib) {
        String text = HEADER + "a".repeat(mib << 20) + "\n";
        long bytes = allocated(() -> assertThatThrownBy(() -> ConfigText.parseAll(text))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("line 6, column 10")
                .hasMessageContaining("a string of " + (mib << 20) + " characters, more than the limit of " + TextLimits.OBJECTS.maxScalarChars()));
        assertThat(bytes).isLessThan(64L * text.length());
    }

    @Test
    void aConfigurationTextOverItsLimitIsRefusedBeforeParsing() {
        String text = "hostnameOverride: " + "a".repeat(10_000_000);
        long bytes = allocated(() -> assertThatThrownBy(() -> ConfigLoader.load(text))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("more than the limit of " + TextLimits.CONFIG.maxFileBytes()));
        assertThat(bytes).isLessThan(1 << 20);
    }

    @Test
    void aKeyOverTheLimitIsRefused() {
        // An explicit YAML key (an implicit one is limited to 1,024 characters by YAML itself); Jackson's JSON parser refuses names over 50,000.
        int length = TextLimits.CONFIG.maxScalarChars() + 1;
        assertThatThrownBy(() -> ConfigText.parse("? " + "k".repeat(length) + "\n: 1\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("a key of " + length + " characters");
        assertThatThrownBy(() -> ConfigText.parse("{\"" + "k".repeat(length) + "\": 1}"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("(" + length + ")");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"yaml-flow", "yaml-block", "json"})
    void deepNestingIsRefusedAtTheLimit(String style) {
        int depth = 100_000;
        String text = switch (style) {
            case "yaml-flow" -> "a: " + "[".repeat(depth) + "]".repeat(depth);
            case "yaml-block" -> nestedBlock(TextLimits.CONFIG.maxDepth());
            default -> "{\"a\": " + "[".repeat(depth) + "]".repeat(depth) + "}";
        };
        assertThatThrownBy(() -> ConfigText.parse(text)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("nested more than " + TextLimits.CONFIG.maxDepth() + " levels deep");
        assertThat(ConfigText.parse(nestedBlock(TextLimits.CONFIG.maxDepth() - 1))).isInstanceOf(Json.Obj.class);
    }

    /** Objects nested {@code depth + 1} levels deep (the document is the first). */
    private static String nestedBlock(int depth) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            sb.append("  ".repeat(i)).append("k:\n");
        }
        return sb.append("  ".repeat(depth)).append("v: 1\n").toString();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"a: ", "{\"a\": "})
    void aNumberOfThousandsOfDigitsIsRefused(String prefix) {
        String digits = "9".repeat(100_000);
        String text = prefix + digits + (prefix.startsWith("{") ? "}" : "");
        assertThatThrownBy(() -> ConfigText.parse(text)).isInstanceOf(ConfigException.class).hasMessageContaining("1000");
    }

    @Test
    void forbiddenCharactersAreStillRefusedAsSnakeYamlDoes() {
        assertThatThrownBy(() -> ConfigText.parse("a: b\u0001c")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("special characters are not allowed");
    }
}
