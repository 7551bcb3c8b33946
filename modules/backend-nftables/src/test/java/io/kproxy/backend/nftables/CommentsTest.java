package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A comment can never end its quotes or its line (issue 18, defect 4); a real name passes unchanged. */
class CommentsTest {

    @Test
    void aServicePortNamePassesUnchanged() {
        assertThat(Comments.text("shop/checkout:https-alt tcp")).isEqualTo("shop/checkout:https-alt tcp");
    }

    @Test
    void quotesBackslashesAndEveryNonPrintableCharacterAreReplaced() {
        String hostile = "x\" ; add chain ip kube-proxy evil { type filter hook input priority 0 ; policy drop ; }\n#\\\u001b\u2028é";
        assertThat(Comments.text(hostile))
                .isEqualTo("x_ ; add chain ip kube-proxy evil { type filter hook input priority 0 ; policy drop ; }_#____");
        NftElement e = new NftElement("no-endpoint-services", "172.30.0.10 . tcp . 80", "goto reject-chain", hostile);
        assertThat(e.body()).startsWith("{ 172.30.0.10 . tcp . 80 comment \"x_ ; add chain").doesNotContain("\n").endsWith("_#____\" : goto reject-chain }");
        assertThat(e.body().chars().filter(c -> c == '"').count()).isEqualTo(2);
    }
}
