package io.kproxy.backend.iptables;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A comment can never end its quotes, its word or its line (issue 18, defect 4); a real name passes unchanged. */
class CommentsTest {

    @Test
    void aServicePortNamePassesUnchanged() {
        assertThat(Comments.quoted("shop/checkout:https cluster IP")).isEqualTo("\"shop/checkout:https cluster IP\"");
        assertThat(Comments.word("shop/checkout:https")).isEqualTo("shop/checkout:https");
    }

    @Test
    void quotesBackslashesBlanksAndEveryNonPrintableCharacterAreReplaced() {
        String hostile = "x\" -j ACCEPT\n-A INPUT -j DROP\\\u001b\u2028é";
        assertThat(Comments.quoted(hostile)).isEqualTo("\"x_ -j ACCEPT_-A INPUT -j DROP____\"");
        assertThat(Comments.word(hostile)).isEqualTo("x__-j_ACCEPT_-A_INPUT_-j_DROP____");
    }
}
