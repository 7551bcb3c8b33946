package io.kproxy.engine;

import static io.kproxy.engine.EngineHarness.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.DataplanePinned;
import io.kproxy.events.DataplaneUnpinned;
import io.kproxy.events.Envelope;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.state.FoldedState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link DataplaneTargets}: live without a pin, the (cached) state at the pinned offset with one. */
class DataplaneTargetsTest {

    private final MemoryEventLog log = new MemoryEventLog(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
    private final AtomicReference<FoldedState> live = new AtomicReference<>(FoldedState.initial());

    private long append(io.kproxy.events.ClusterEvent e) {
        long o = log.append("test", e).join();
        FoldedState s = live.get();
        for (Envelope r : log.read(s.offset() + 1, Integer.MAX_VALUE)) {
            s = s.apply(r).state();
        }
        live.set(s);
        return o;
    }

    private long bootstrap() {
        try (EngineHarness h = new EngineHarness(log)) {
            h.bootstrap();
        }
        FoldedState s = live.get();
        for (Envelope r : log.read(s.offset() + 1, Integer.MAX_VALUE)) {
            s = s.apply(r).state();
        }
        live.set(s);
        return s.offset();
    }

    @Test
    void liveWithoutAPinPinnedStateWithOneLiveAgainAfterTheUnpin() {
        DataplaneTargets targets = new DataplaneTargets(log, live::get);
        long good = bootstrap();
        append(slice("a").resourceVersion("2").observed());
        DataplaneTarget t = targets.get();
        assertThat(t.pin()).isEmpty();
        assertThat(t.node()).isSameAs(live.get().node());
        assertThat(t.uptoOffset()).isEqualTo(live.get().offset()).isEqualTo(t.liveOffset());

        FoldedState atGood = io.kproxy.replay.StateLoader.at(log, good).state();
        long pinnedAt = append(new DataplanePinned(good, "r"));
        append(slice("a", "10.0.9.9").resourceVersion("3").observed());
        DataplaneTarget pinned = targets.get();
        assertThat(pinned.pin()).hasValueSatisfying(p -> assertThat(p.pinnedAt()).isEqualTo(pinnedAt));
        assertThat(pinned.node()).isEqualTo(atGood.node()).isNotEqualTo(live.get().node());
        assertThat(pinned.uptoOffset()).isEqualTo(good);
        assertThat(pinned.liveOffset()).isEqualTo(live.get().offset());
        assertThat(targets.get().node()).as("loaded once per pinned offset").isSameAs(pinned.node());

        append(new DataplaneUnpinned("r"));
        assertThat(targets.get().pin()).isEmpty();
        assertThat(targets.get().node()).isSameAs(live.get().node());
    }

    @Test
    void anOffsetPastTheLogIsUnavailable() {
        DataplaneTargets targets = new DataplaneTargets(log, live::get);
        bootstrap();
        assertThatThrownBy(() -> targets.stateAt(log.nextOffset())).isInstanceOf(DataplaneTargets.Unavailable.class)
                .hasMessageContaining("past the end of the log");
    }
}
