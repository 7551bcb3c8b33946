package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.model.IpFamily;
import io.kproxy.model.Json;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TriggerTimeTest {

    @Test
    void theDirectReadGivesWhatTheIsoParserGives() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(random.nextLong(-62_000_000_000L, 250_000_000_000L));
            String text = t.toString();
            assertThat(TriggerTime.parse(text)).as(text).isEqualTo(OffsetDateTime.parse(text).toInstant());
        }
        for (String text : new String[] {"2026-11-22T03:12:04Z", "2024-02-29T23:59:59Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
                "2026-11-22T03:12:04.123456Z", "2026-11-22T04:12:04+01:00", "2026-11-22t03:12:04z"}) {
            assertThat(TriggerTime.parse(text)).as(text).isEqualTo(OffsetDateTime.parse(text).toInstant());
        }
    }

    @Test
    void whatTheIsoParserRefusesIsRefused() {
        for (String text : new String[] {"2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-22T24:00:00Z",
                "2026-11-22T03:60:00Z", "2026-11-22T03:12:60Z", "2026-1x-22T03:12:04Z", "2026-11-22 03:12:04Z", "-026-11-22T03:12:04Z",
                "", "yesterday"}) {
            assertThatThrownBy(() -> TriggerTime.parse(text)).as(text).isInstanceOf(DateTimeException.class);
        }
    }

    @Test
    void aSliceWithoutAValidTimeOrAddressTypeHasNone() {
        Json.Obj annotated = slice("2026-11-22T03:12:04Z", "IPv6");
        assertThat(TriggerTime.of(annotated)).contains(new TriggerTime(Instant.parse("2026-11-22T03:12:04Z"), IpFamily.IPV6));
        assertThat(TriggerTime.of(slice("2025-02-29T00:00:00Z", "IPv4"))).isEmpty();
        assertThat(TriggerTime.of(slice("2026-11-22T03:12:04Z", "FQDN"))).isEqualTo(Optional.empty());
    }

    private static Json.Obj slice(String time, String addressType) {
        return Json.obj("metadata", Json.obj("annotations", Json.obj(TriggerTime.ANNOTATION, Json.of(time))), "addressType", Json.of(addressType));
    }
}
