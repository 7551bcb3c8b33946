package io.kproxy.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimesTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-22T04:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest
    @CsvSource({
            "2026-11-22T03:12:07Z, 2026-11-22T03:12:07Z",
            "2026-11-22T03:12:07.250Z, 2026-11-22T03:12:07.250Z",
            "2026-11-22T05:12:07+02:00, 2026-11-22T03:12:07Z",
            "2026-11-21T22:12:07-05:00, 2026-11-22T03:12:07Z",
            "2026-11-22 03:12:07Z, 2026-11-22T03:12:07Z",
            "now, 2026-11-22T04:00:00Z",
            "-5m, 2026-11-22T03:55:00Z",
            "-90s, 2026-11-22T03:58:30Z",
            "-1h30m, 2026-11-22T02:30:00Z",
            "-2d, 2026-11-20T04:00:00Z",
    })
    void readsRfc3339NowAndRelativeTimes(String text, String expected) {
        assertThat(Times.parse(text, NOW)).isEqualTo(Instant.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"yesterday", "2026-11-22T03:12:07", "2026-11-22", "-5x", "5m", "", "-99999999999999999999d", "03:12:07Z"})
    void refusesAnythingElseNamingTheAcceptedForms(String text) {
        assertThatThrownBy(() -> Times.parse(text, NOW)).isInstanceOfSatisfying(HistoryException.class,
                e -> assertThat(e.reason()).isEqualTo(HistoryException.Reason.BAD_ARGUMENT)).hasMessageContaining(text);
    }
}
