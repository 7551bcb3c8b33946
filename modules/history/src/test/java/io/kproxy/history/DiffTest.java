package io.kproxy.history;

import static io.kproxy.history.TestLog.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.testkit.NodeFixture;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code diff} beyond the sample's goldens: node-wide changes, nothing changed, points out of order. */
class DiffTest {

    @Test
    void aNewNodeAddressIsANodeWideChangeCausedByTheNodeRecord() {
        TestLog l = TestLog.threeServices();
        long before = l.log.nextOffset() - 1;
        l.at("00:00:20", NodeFixture.node(TestLog.NODE).internalIP("192.168.0.9").resourceVersion("8").observed());
        try (History h = History.of(l.log)) {
            String out = h.diff(h.atOffset(before), h.desiredAt(t("00:00:30")), Optional.empty());
            assertThat(out).contains("node-wide rules changed\n\n== node-wide\n")
                    .contains("- add element ip kube-proxy nodeport-ips { 192.168.0.2 }\n+ add element ip kube-proxy nodeport-ips { 192.168.0.9 }\n")
                    .contains("caused by:\n  #10 2026-01-01T00:00:20.000Z NodeObserved node/node-a rv 8\n");
        }
    }

    @Test
    void twoPointsOnTheSameStateChangeNothing() {
        TestLog l = TestLog.threeServices();
        l.at("00:00:20", NodeFixture.node(TestLog.NODE).internalIP("192.168.0.2").resourceVersion("8").observed());
        try (History h = History.of(l.log)) {
            String out = h.diff(h.atOffset(9), h.atOffset(10), Optional.of("iptables"));
            assertThat(out).startsWith("kproxy diff: iptables rulesets\n").contains("records between: 1 (#10..#10), NodeObserved 1\n")
                    .endsWith("no rule changed\n");
            assertThatThrownBy(() -> h.diff(h.atOffset(10), h.atOffset(9), Optional.empty())).isInstanceOfSatisfying(HistoryException.class,
                    e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.BAD_ARGUMENT));
        }
    }
}
