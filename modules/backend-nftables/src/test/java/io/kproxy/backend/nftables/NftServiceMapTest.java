package io.kproxy.backend.nftables;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.model.Protocol;
import io.kproxy.model.ServicePortName;
import io.kproxy.model.ServiceRef;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * An endpoint dispatch cuts its slot {@code [offset, offset + 2^24)} of a shared map into ranges
 * that cover it exactly, one per endpoint in order, differing in size by at most one value: each
 * endpoint is picked with a probability within {@code 2^-24} of {@code 1/N} (numgen over a
 * power-of-two modulus is uniform), a relative error of at most {@code N / 2^24}. Verdict maps
 * (session affinity) index the endpoint chains.
 */
class NftServiceMapTest {

    private static final ServicePortName SPN = new ServicePortName(new ServiceRef("ns", "svc"), "p80", Protocol.TCP);

    @Test
    void rangesPartitionTheSlotEvenly() {
        for (int position : new int[] {0, 1, 255, 256, 1000}) {
            for (int n = 1; n <= 1000; n += n < 20 ? 1 : 37) {
                List<String> targets = IntStream.range(0, n).mapToObj(i -> "10.0.0." + i + " . 80").toList();
                NftDispatch d = new NftDispatch(SPN, "service-X", "tcp", position, targets);
                long offset = (position % 256) * NftDispatch.SLOT_SIZE;
                assertThat(d.offset()).isEqualTo(offset);
                assertThat(d.map()).isEqualTo("endpoints-tcp-" + position / 256);
                long next = offset;
                long min = Long.MAX_VALUE;
                long max = 0;
                for (int i = 0; i < n; i++) {
                    NftServiceMap.Entry e = d.entries().get(i);
                    String[] r = e.key().split("-");
                    long from = Long.parseLong(r[0]);
                    long to = Long.parseLong(r[1]);
                    assertThat(from).as("n=%d range %d starts where the last ended", n, i).isEqualTo(next);
                    assertThat(e.value()).isEqualTo(targets.get(i));
                    min = Math.min(min, to - from + 1);
                    max = Math.max(max, to - from + 1);
                    next = to + 1;
                }
                assertThat(next).as("n=%d covers the slot", n).isEqualTo(offset + NftDispatch.SLOT_SIZE);
                assertThat(next - 1).as("inside 32 bits").isLessThanOrEqualTo(0xffffffffL);
                assertThat(max - min).as("n=%d sizes", n).isLessThanOrEqualTo(1);
                // |size/2^24 - 1/N| < 2^-24, so the relative error is below N/2^24
                assertThat(Math.abs((double) min / NftDispatch.SLOT_SIZE - 1.0 / n)).isLessThan(1.0 / NftDispatch.SLOT_SIZE);
            }
        }
    }

    @Test
    void theRuleReadsItsSlotOfTheSharedMap() {
        NftDispatch d = new NftDispatch(SPN, "service-X", "udp", 3 * 256 + 5, List.of("fd00::1 . 53"));
        assertThat(d.rule(NftFamily.V6)).isEqualTo("meta l4proto udp dnat ip6 to numgen random mod 16777216 offset 83886080 map @endpoints-udp-3");
        assertThat(d.entries()).singleElement().extracting(NftServiceMap.Entry::text).isEqualTo("83886080-100663295 : fd00::1 . 53");
    }

    @Test
    void declarationsNameTheProtocolOfTheData() {
        assertThat(NftServiceMap.endpointsType(NftFamily.V6, "sctp"))
                .isEqualTo("typeof numgen random mod 1 : ip6 daddr . sctp dport ; flags interval");
        assertThat(NftServiceMap.verdicts("service-X", List.of("a", "b")).entries()).extracting(NftServiceMap.Entry::text)
                .containsExactly("0 : goto a", "1 : goto b");
    }
}
