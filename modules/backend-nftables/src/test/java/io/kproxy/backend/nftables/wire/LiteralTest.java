package io.kproxy.backend.nftables.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link Literal#split} gives what {@link String#split} with the quoted separator gives. */
class LiteralTest {

    @Test
    void splitsAsStringSplitDoes() {
        List<String> inputs = List.of("", " . ", "a", "a . b", "a . b . c", " . a", "a . ", "a .  . b", "a . . b", "a .  . ", "10.0.0.1 . 8080",
                "type ipv4_addr ; comment \"x ; y\" ;", "a ; ; b ; ; ");
        for (String sep : List.of(" . ", " ; ", " : ")) {
            for (String in : inputs) {
                assertThat(Literal.split(in, sep)).as("'%s' at '%s'", in, sep).containsExactly(in.split(Pattern.quote(sep)));
                assertThat(Literal.split(in, sep, true)).as("'%s' at '%s', -1", in, sep).containsExactly(in.split(Pattern.quote(sep), -1));
            }
        }
    }
}
