package io.kproxy.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.RulesetHash.Digest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class RulesetHashTest {

    private static final Digest HEAD = RulesetHash.digest("add table ip kube-proxy\n");
    private static final Digest A = RulesetHash.digest("# a\n");
    private static final Digest B = RulesetHash.digest("# b\n");

    @Test
    void digestIsSha256OfTheUtf8Text() throws Exception {
        byte[] want = MessageDigest.getInstance("SHA-256").digest("é\n".getBytes(StandardCharsets.UTF_8));
        assertThat(RulesetHash.digest("é\n").toString()).isEqualTo(HexFormat.of().formatHex(want));
        assertThat(RulesetHash.digest("x")).isEqualTo(RulesetHash.digest(new StringBuilder("x"))).hasSameHashCodeAs(RulesetHash.digest("x"));
        assertThat(RulesetHash.digest("x")).isNotEqualTo(RulesetHash.digest("y"));
    }

    @Test
    void hashIsSha256OverHeadCountAndPartsInOrder() throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(HexFormat.of().parseHex(HEAD.toString()));
        md.update(new byte[] {0, 0, 1, 2});
        for (int i = 0; i < 258; i++) {
            md.update(HexFormat.of().parseHex(A.toString()));
        }
        RulesetHash.Builder b = RulesetHash.builder().section(HEAD, 258);
        for (int i = 0; i < 258; i++) {
            b.part(A);
        }
        assertThat(b.hex()).isEqualTo(HexFormat.of().formatHex(md.digest())).hasSize(64);
    }

    @Test
    void orderAndSectionBoundariesCount() {
        String ab = RulesetHash.builder().section(HEAD, 2).part(A).part(B).section(HEAD, 0).hex();
        assertThat(RulesetHash.builder().section(HEAD, 2).part(B).part(A).section(HEAD, 0).hex()).isNotEqualTo(ab);
        assertThat(RulesetHash.builder().section(HEAD, 1).part(A).section(HEAD, 1).part(B).hex()).isNotEqualTo(ab);
        assertThat(RulesetHash.builder().section(HEAD, 2).part(A).part(B).section(HEAD, 0).hex()).isEqualTo(ab);
        assertThatThrownBy(() -> RulesetHash.builder().section(HEAD, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
