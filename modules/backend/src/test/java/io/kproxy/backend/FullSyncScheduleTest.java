package io.kproxy.backend;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.SyncKind;
import io.kproxy.model.IpFamily;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FullSyncScheduleTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static Transaction tx(SyncKind kind) {
        Plan plan = new Plan() {
            @Override
            public String mode() {
                return "test";
            }

            @Override
            public String rulesetText() {
                return "";
            }

            @Override
            public String loadableText(IpFamily family) {
                return "";
            }

            @Override
            public String rulesetHash() {
                return "";
            }

            @Override
            public int servicePorts() {
                return 0;
            }

            @Override
            public Optional<Instant> nextDeferredWork() {
                return Optional.empty();
            }
        };
        return new Transaction("test", kind, 1, "x", plan);
    }

    @Test
    void fullOnStartAfterFailureOnTopologyChangeAndHourly() {
        FullSyncSchedule s = FullSyncSchedule.initial();
        assertThat(s.fullSyncDue(T0, false)).isTrue();
        s = s.after(tx(SyncKind.FULL), T0, true);
        assertThat(s.fullSyncDue(T0.plusSeconds(1), false)).isFalse();
        assertThat(s.fullSyncDue(T0.plusSeconds(1), true)).isTrue();
        s = s.after(tx(SyncKind.PARTIAL), T0.plusSeconds(2), true);
        assertThat(s.fullSyncDue(T0.plus(Duration.ofMinutes(59)), false)).isFalse();
        assertThat(s.fullSyncDue(T0.plus(Duration.ofHours(1)), false)).isTrue();
        FullSyncSchedule failed = s.after(tx(SyncKind.PARTIAL), T0.plusSeconds(3), false);
        assertThat(failed.fullSyncDue(T0.plusSeconds(4), false)).isTrue();
        assertThat(failed.after(tx(SyncKind.FULL), T0.plusSeconds(5), true).fullSyncDue(T0.plusSeconds(6), false)).isFalse();
    }
}
