package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's {@code time.Time.String()} layout, as upstream's health bodies print times. */
class GoTimeTest {

    @ParameterizedTest
    @CsvSource({
        "2024-05-01T10:00:00Z, 2024-05-01 10:00:00 +0000 UTC",
        "2024-05-01T10:00:00.5Z, 2024-05-01 10:00:00.5 +0000 UTC",
        "2024-05-01T10:00:00.123456789Z, 2024-05-01 10:00:00.123456789 +0000 UTC",
        "2024-05-01T10:00:00.000001Z, 2024-05-01 10:00:00.000001 +0000 UTC",
        "0001-01-01T00:00:00Z, 0001-01-01 00:00:00 +0000 UTC",
    })
    void formatsLikeGo(String instant, String expected) {
        assertThat(GoTime.format(Instant.parse(instant))).isEqualTo(expected);
    }
}
