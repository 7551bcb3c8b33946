package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The endpoint dispatch map cuts {@code [0, 2^31)} into ranges that cover it exactly, one per
 * endpoint in order, differing in size by at most one value: each endpoint is picked with a
 * probability within {@code 2^-31} of {@code 1/N} (numgen over a power-of-two modulus is
 * uniform).
 */
class NftServiceMapTest {

    @Test
    void rangesPartitionTheModulusEvenly() {
        for (int n = 1; n <= 1000; n++) {
            List<String> targets = new ArrayList<>(IntStream.range(0, n).mapToObj(i -> "10.0.0." + i + " . 80").toList());
            NftServiceMap m = NftServiceMap.endpoints(NftFamily.V4, "tcp", "service-X", targets);
            long next = 0;
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int i = 0; i < n; i++) {
                NftServiceMap.Entry e = m.entries().get(i);
                String[] r = e.key().split("-");
                long from = Long.parseLong(r[0]);
                long to = Long.parseLong(r[1]);
                assertThat(from).as("n=%d range %d starts where the last ended", n, i).isEqualTo(next);
                assertThat(e.value()).isEqualTo(targets.get(i));
                min = Math.min(min, to - from + 1);
                max = Math.max(max, to - from + 1);
                next = to + 1;
            }
            assertThat(next).as("n=%d covers the modulus", n).isEqualTo(NftServiceMap.MODULUS);
            assertThat(max - min).as("n=%d sizes", n).isLessThanOrEqualTo(1);
            // |size/M - 1/N| < 1/M
            assertThat(Math.abs((double) min / NftServiceMap.MODULUS - 1.0 / n)).isLessThan(1.0 / NftServiceMap.MODULUS);
        }
    }

    @Test
    void declarationsNameTheProtocolOfTheData() {
        NftServiceMap m = NftServiceMap.endpoints(NftFamily.V6, "sctp", "service-X", List.of("fd00::1 . 80"));
        assertThat(m.type()).isEqualTo("typeof numgen random mod 1 : ip6 daddr . sctp dport ; flags interval");
        assertThat(m.entries()).singleElement().extracting(NftServiceMap.Entry::text).isEqualTo("0-2147483647 : fd00::1 . 80");
        assertThat(NftServiceMap.verdicts("service-X", List.of("a", "b")).entries()).extracting(NftServiceMap.Entry::text)
                .containsExactly("0 : goto a", "1 : goto b");
    }
}
