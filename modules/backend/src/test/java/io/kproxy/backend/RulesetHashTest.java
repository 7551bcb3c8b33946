package io.kproxy.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.backend.RulesetHash.Digest;
import java.nio.charset.StandardCharsets;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
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
    void hashIsSha256OverHeadCountAndTheSumOfThePartsModulo2To256() throws Exception {
        BigInteger modulus = BigInteger.ONE.shiftLeft(256);
        BigInteger sum = BigInteger.ZERO;
        List<Digest> parts = new ArrayList<>();
        for (int i = 0; i < 258; i++) {
            Digest d = RulesetHash.digest("# part " + i + "\n");
            parts.add(d);
            sum = sum.add(new BigInteger(1, HexFormat.of().parseHex(d.toString()))).mod(modulus);
        }
        byte[] sumBytes = new byte[32];
        byte[] raw = sum.toByteArray();
        int n = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - n, sumBytes, 32 - n, n);
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        md.update(HexFormat.of().parseHex(HEAD.toString()));
        md.update(new byte[] {0, 0, 1, 2});
        md.update(sumBytes);
        assertThat(RulesetHash.builder().section(HEAD, parts).hex()).isEqualTo(HexFormat.of().formatHex(md.digest())).hasSize(64);
        assertThat(RulesetHash.builder().section(HEAD, RulesetHash.Sum.of(parts)).hex())
                .isEqualTo(RulesetHash.builder().section(HEAD, parts).hex());
    }

    @Test
    void aSumUpdatedPartByPartEqualsTheSumOfTheParts() {
        Random random = new Random(42);
        List<Digest> held = new ArrayList<>();
        RulesetHash.Sum running = RulesetHash.Sum.EMPTY;
        for (int i = 0; i < 2_000; i++) {
            if (!held.isEmpty() && random.nextInt(3) == 0) {
                Digest gone = held.remove(random.nextInt(held.size()));
                running = running.minus(gone);
            } else {
                Digest d = RulesetHash.digest("# part " + random.nextLong() + "\n");
                held.add(d);
                running = running.plus(d);
            }
            if (i % 97 == 0) {
                assertThat(running).isEqualTo(RulesetHash.Sum.of(held));
            }
        }
        assertThat(running).isEqualTo(RulesetHash.Sum.of(held)).hasSameHashCodeAs(RulesetHash.Sum.of(held));
        assertThat(running.count()).isEqualTo(held.size());
        assertThat(RulesetHash.Sum.EMPTY.plus(A).minus(A)).isEqualTo(RulesetHash.Sum.EMPTY);
        assertThat(RulesetHash.Sum.EMPTY.plus(A).replace(A, B)).isEqualTo(RulesetHash.Sum.EMPTY.plus(B));
        assertThatThrownBy(() -> RulesetHash.Sum.EMPTY.minus(A)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theSumCarriesAndBorrowsAcrossLimbs() throws Exception {
        // 64 real digests (each about 2^255 on average) wrap past 2^256 many times over, so the
        // carries and borrows through every limb are checked against BigInteger.
        BigInteger modulus = BigInteger.ONE.shiftLeft(256);
        RulesetHash.Sum s = RulesetHash.Sum.EMPTY;
        BigInteger want = BigInteger.ZERO;
        for (int i = 0; i < 64; i++) {
            Digest d = RulesetHash.digest("carry " + i);
            s = s.plus(d);
            want = want.add(new BigInteger(1, HexFormat.of().parseHex(d.toString()))).mod(modulus);
            assertThat(s.toString()).isEqualTo((i + 1) + ":" + String.format("%064x", want));
        }
        for (int i = 0; i < 64; i += 2) {
            Digest d = RulesetHash.digest("carry " + i);
            s = s.minus(d);
            want = want.subtract(new BigInteger(1, HexFormat.of().parseHex(d.toString()))).mod(modulus);
            assertThat(s.toString()).endsWith(":" + String.format("%064x", want));
        }
    }

    @Test
    void partsCountAsASetAndSectionBoundariesCount() {
        String ab = RulesetHash.builder().section(HEAD, List.of(A, B)).section(HEAD, List.of()).hex();
        assertThat(RulesetHash.builder().section(HEAD, List.of(B, A)).section(HEAD, List.of()).hex()).isEqualTo(ab);
        assertThat(RulesetHash.builder().section(HEAD, List.of(A)).section(HEAD, List.of(B)).hex()).isNotEqualTo(ab);
        assertThat(RulesetHash.builder().section(HEAD, List.of(A, A)).section(HEAD, List.of()).hex()).isNotEqualTo(ab);
        assertThat(RulesetHash.builder().section(HEAD, List.of(A, B, B)).section(HEAD, List.of()).hex()).isNotEqualTo(ab);
        assertThat(RulesetHash.builder().section(A, List.of(A, B)).section(HEAD, List.of()).hex()).isNotEqualTo(ab);
    }
}
