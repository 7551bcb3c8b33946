package io.kproxy.history;

import static io.kproxy.history.TestLog.t;
import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.testkit.Golden;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code render --explain} of a small history, whole, against golden files (golden/explain). */
class ExplainGoldenTest {

    @ParameterizedTest
    @ValueSource(strings = {"nftables", "iptables"})
    void eachServicesRulesArePrecededByTheRecordsTheyCameFrom(String mode) {
        TestLog l = RulesetBlocksTest.variety();
        try (History h = History.of(l.log)) {
            String out = h.explain(h.render(h.desiredAt(t("00:00:06")), Optional.of(mode)));
            Golden.assertMatches("explain/variety-" + mode + ".txt", out);
            assertThat(out).contains("# ns/web: Service #2 2026-01-01T00:00:01.000Z ServiceObserved rv 10\n"
                    + "#   EndpointSlice ns/web-1: #6 2026-01-01T00:00:02.000Z EndpointSliceObserved rv 21\n")
                    .contains("#   ns/headless: headless");
            String plain = h.render(h.desiredAt(t("00:00:06")), Optional.of(mode)).text();
            assertThat(out.lines().filter(x -> !x.startsWith("#") && !x.isBlank()).toList())
                    .as("explain only adds comments").isEqualTo(plain.lines().filter(x -> !x.startsWith("#") && !x.isBlank()).toList());
        }
    }
}
