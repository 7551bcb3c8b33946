package io.kproxy.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kproxy's rule for conntrack timeouts (upstream only requires them non-negative): what the kernel
 * cannot take is refused before the agent starts. Regression: 2147484s (above INT_MAX/HZ) and
 * 500ms (truncated to 0) used to pass validation.
 */
class ConntrackTimeoutRuleTest {

    @ParameterizedTest
    @CsvSource({
            "tcpEstablishedTimeout, 0s, true",
            "tcpEstablishedTimeout, 1s, true",
            "tcpEstablishedTimeout, 1500ms, true",
            "tcpEstablishedTimeout, 596h31m23s, true",
            "tcpEstablishedTimeout, 596h31m24s, false",
            "tcpCloseWaitTimeout, 2147484s, false",
            "udpTimeout, 500ms, false",
            "udpStreamTimeout, 1ns, false",
            "udpStreamTimeout, 999ms, false",
            "tcpCloseWaitTimeout, -1s, false"})
    void timeoutsTheKernelCannotTakeAreRefused(String field, String value, boolean valid) {
        ProxyConfig c = Trees.defaultsWith("conntrack." + field, value);
        assertThat(Validator.validate(c)).as("%s=%s", field, value).extracting(FieldError::path)
                .isEqualTo(valid ? List.of() : List.of("conntrack." + field));
    }

    @ParameterizedTest
    @CsvSource({"500ms, at least 1s", "2147484s, at most 596h31m23s"})
    void theReasonSaysWhy(String value, String reason) {
        assertThat(Validator.validate(Trees.defaultsWith("conntrack.udpTimeout", value))).singleElement()
                .satisfies(e -> assertThat(e.reason()).contains(reason));
    }
}
