package io.kproxy.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** One-line escaping of outside text, and the opaque-token check of resourceVersions. */
class PrintableTest {

    @Test
    void escapesWhatEndsALineOrDrivesATerminalAndNothingElse() {
        assertThat(Printable.escape("shop/checkout rv 184555 \"quoted\" ; # { } é 日本")).isEqualTo(
                "shop/checkout rv 184555 \"quoted\" ; # { } é 日本");
        assertThat(Printable.escape("a\nb\rc\td\\e")).isEqualTo("a\\nb\\rc\\td\\e");
        assertThat(Printable.escape("\u001b[31mred\u0000\u007f")).isEqualTo("\\x1b[31mred\\x00\\x7f");
        assertThat(Printable.escape("nel\u0085csi\u009bls\u2028ps\u2029rlo\u202ezw\u200bbom\ufeff"))
                .isEqualTo("nel\\x85csi\\x9bls\\u2028ps\\u2029rlo\\u202ezw\\u200bbom\\ufeff");
        assertThat(Printable.escape("lone \ud800 pair \ud83d\ude00")).isEqualTo("lone \\ud800 pair \ud83d\ude00");
        assertThat(Printable.escape(null)).isEqualTo("null");
    }

    @Test
    void theEscapedFormOfAnyStringIsOnePrintableLine() {
        long seed = System.nanoTime();
        SplittableRandom r = new SplittableRandom(seed);
        for (int n = 0; n < 2000; n++) {
            StringBuilder b = new StringBuilder();
            int len = r.nextInt(40);
            for (int i = 0; i < len; i++) {
                b.append((char) (r.nextBoolean() ? r.nextInt(0x100) : r.nextInt(0x10000)));
            }
            String escaped = Printable.escape(b.toString());
            assertThat(Printable.isPrintable(escaped)).as("seed %d: %s", seed, escaped).isTrue();
            assertThat(Printable.escape(escaped)).as("seed %d: idempotent", seed).isEqualTo(escaped);
            assertThat(escaped).as("seed %d", seed).doesNotContain("\n", "\r", "\u0085", "\u2028", "\u2029", "\u001b");
        }
    }

    @Test
    void aResourceVersionIsAnOpaqueTokenWithoutWhitespaceOrControls() {
        assertThat(Printable.requireToken("rv", "184555")).isEqualTo("184555");
        assertThat(Printable.requireToken("rv", "")).isEmpty();
        assertThat(Printable.requireToken("rv", "opaque-Ä/+=:\\")).isEqualTo("opaque-Ä/+=:\\");
        for (String bad : new String[] {"1\n}", "1 2", "1\t", "\u001b[2J", "1\u2028", "1\u0085", "1\u00a0", "1\u202e", "1\u0000"}) {
            assertThatThrownBy(() -> Printable.requireToken("metadata.resourceVersion", bad)).isInstanceOf(InvalidValueException.class)
                    .hasMessageStartingWith("invalid metadata.resourceVersion \"").hasMessageContaining("must be an opaque token")
                    .satisfies(e -> assertThat(Printable.isPrintable(e.getMessage())).isTrue());
        }
        assertThatThrownBy(() -> Printable.requireToken("rv", null)).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void anInvalidValueMessageIsOneLineWhateverTheValueHolds() {
        InvalidValueException e = new InvalidValueException("spec.clusterIP", "10.0.0.1\nlevel=ERROR forged\u001b[31m", "not an IP");
        assertThat(e.getMessage()).isEqualTo("invalid spec.clusterIP \"10.0.0.1\\nlevel=ERROR forged\\x1b[31m\": not an IP");
        assertThat(e.value()).isEqualTo("10.0.0.1\nlevel=ERROR forged\u001b[31m");
    }
}
