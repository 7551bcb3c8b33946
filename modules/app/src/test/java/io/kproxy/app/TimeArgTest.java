package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The TIME grammar of {@code kproxy rollback --to}. */
class TimeArgTest {

    private static final Instant NOW = Instant.parse("2026-11-22T03:30:00Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "2026-11-22T03:12:07Z, 2026-11-22T03:12:07Z",
        "2026-11-22T05:12:07.5+02:00, 2026-11-22T03:12:07.500Z",
        "2026-11-22 03:12:07Z, 2026-11-22T03:12:07Z",
        "now, 2026-11-22T03:30:00Z",
        "-10m, 2026-11-22T03:20:00Z",
        "-1h30m, 2026-11-22T02:00:00Z",
        "-90s, 2026-11-22T03:28:30Z",
        "-2d, 2026-11-20T03:30:00Z",
    })
    void reads(String text, String want) throws TimeArg.Invalid {
        assertThat(TimeArg.parse(text, NOW)).isEqualTo(Instant.parse(want));
    }

    @ParameterizedTest(name = "[{index}] \"{0}\"")
    @ValueSource(strings = {"yesterday", "2026-11-22T03:12:07", "10m", "-10", "-1.5h", "", "-99999999999999999999d"})
    void refuses(String text) {
        assertThatThrownBy(() -> TimeArg.parse(text, NOW)).isInstanceOf(TimeArg.Invalid.class).hasMessageContaining(text);
    }
}
