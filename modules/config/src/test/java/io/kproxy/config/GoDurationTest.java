package io.kproxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.InvalidValueException;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Vectors from Go's {@code time/time_test.go} (parseDurationTests, durationTests). */
class GoDurationTest {

    @ParameterizedTest(name = "{0} = {1}ns")
    @CsvSource(delimiter = '|', value = {
        "0|0", "5s|5000000000", "30s|30000000000", "1478s|1478000000000", "-5s|-5000000000", "+5s|5000000000",
        "-0|0", "+0|0", "5.0s|5000000000", "5.6s|5600000000", "5.s|5000000000", ".5s|500000000", "1.0s|1000000000",
        "1.00s|1000000000", "1.004s|1004000000", "1.0040s|1004000000", "100.00100s|100001000000",
        "10ns|10", "11us|11000", "12µs|12000", "12μs|12000", "13ms|13000000", "14s|14000000000", "15m|900000000000",
        "16h|57600000000000", "3h30m|12600000000000", "10.5s4m|250500000000", "-2m3.4s|-123400000000",
        "1h2m3s4ms5us6ns|3723004005006", "39h9m14.425s|140954425000000", "52763797000ns|52763797000",
        "0.3333333333333333333h|1200000000000", "9007199254740993ns|9007199254740993",
        "9223372036854775807ns|9223372036854775807", "9223372036854775.807us|9223372036854775807",
        "9223372036s854ms775us807ns|9223372036854775807", "-9223372036854775808ns|-9223372036854775808",
        "-9223372036854775.808us|-9223372036854775808", "0.100000000000000000000h|360000000000",
        "0.830103483285477580700h|2988372539827",
    })
    void parsesLikeGo(String text, String nanos) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(Long.parseLong(nanos)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "1h 2m", " 1s", "1s ", "\u0085\u0085", "hello world",
        "9223372036854775810ns", "9223372036854775808ns", "-9223372036854775809ns", "9223372036854775.808us",
        "9223372036854ms775us808ns", "9223372036s854ms775us808ns", "3000000h", "1e3s", "0x10s"})
    void refusesWhatGoRefuses(String text) {
        assertThatThrownBy(() -> GoDuration.parse("iptables.syncPeriod", text))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("iptables.syncPeriod");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "0|0s", "1|1ns", "1100|1.1µs", "2200000|2.2ms", "3300000000|3.3s", "245000000000|4m5s", "245001000000|4m5.001s",
        "18367001000000|5h6m7.001s", "480000000001|8m0.000000001s", "9223372036854775807|2562047h47m16.854775807s",
        "-9223372036854775808|-2562047h47m16.854775808s", "86400000000000|24h0m0s", "900000000000|15m0s", "2000000|2ms",
        "-1500|-1.5µs",
    })
    void formatsLikeGo(long nanos, String text) {
        assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(text);
    }

    @Test
    void formatRefusesDurationsBeyondGosRange() {
        assertThatThrownBy(() -> GoDuration.format(Duration.ofDays(400L * 365))).isInstanceOf(InvalidValueException.class);
    }

    @Test
    void formatThenParseIsIdentity() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int i = 0; i < 5_000; i++) {
            long nanos = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> random.nextInt(1_000_000_000);
                case 2 -> random.nextLong(1_000_000L) * 1_000_000_000L;
                default -> random.nextInt(100_000) * 1_000_000L;
            };
            Duration d = Duration.ofNanos(nanos);
            assertThat(GoDuration.parse(GoDuration.format(d))).as("seed %d, nanos %d", seed, nanos).isEqualTo(d);
        }
    }
}
