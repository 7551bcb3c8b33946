package io.kproxy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.testkit.SettableClock;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The state at time T is the fold of every record recorded at or before T. */
class LogTimesTest {

    private final SettableClock clock = new SettableClock(Instant.parse("2026-03-01T10:00:00Z"));

    private final MemoryEventLog log = new MemoryEventLog(clock);

    private void appendAt(String time) {
        clock.set(Instant.parse(time));
        log.append("test", new DataplaneUnpinned("")).join();
    }

    @Test
    void lastRecordAtOrBefore() {
        assertThat(LogTimes.lastAtOrBefore(log, Instant.parse("2026-03-01T10:00:00Z"))).as("empty log").isEmpty();
        appendAt("2026-03-01T10:00:00Z"); // 0
        appendAt("2026-03-01T10:00:00Z"); // 1, same instant
        appendAt("2026-03-01T10:00:05.250Z"); // 2
        appendAt("2026-03-01T10:01:00Z"); // 3
        record Case(String at, OptionalLong want) {
        }
        for (Case c : new Case[] {
            new Case("2026-03-01T09:59:59.999999999Z", OptionalLong.empty()),
            new Case("2026-03-01T10:00:00Z", OptionalLong.of(1)),
            new Case("2026-03-01T10:00:05Z", OptionalLong.of(1)),
            new Case("2026-03-01T10:00:05.250Z", OptionalLong.of(2)),
            new Case("2026-03-01T10:00:59.999Z", OptionalLong.of(2)),
            new Case("2026-03-01T10:01:00Z", OptionalLong.of(3)),
            new Case("2027-01-01T00:00:00Z", OptionalLong.of(3)),
        }) {
            assertThat(LogTimes.lastAtOrBefore(log, Instant.parse(c.at()))).as(c.at()).isEqualTo(c.want());
        }
        assertThat(LogTimes.lastAtOrBefore(log, Instant.MAX)).hasValue(3);
        assertThat(LogTimes.recordedAt(log, 2)).hasValue(Instant.parse("2026-03-01T10:00:05.250Z"));
        assertThat(LogTimes.recordedAt(log, 4)).isEmpty();
        assertThat(LogTimes.recordedAt(log, -1)).isEmpty();
    }
}
