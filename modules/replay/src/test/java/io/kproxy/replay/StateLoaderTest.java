package io.kproxy.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.Envelope;
import io.kproxy.journal.MemoryEventLog;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.ForwardingEventLog;
import io.kproxy.state.FoldedState;
import io.kproxy.testkit.EndpointSliceFixture;
import io.kproxy.testkit.EventSequence;
import io.kproxy.testkit.ServiceFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Snapshot plus suffix equals the fold from the start; an unreadable snapshot falls back to an older
 * one; lost records are refused, or stepped over by the agent's start.
 */
class StateLoaderTest {

    private static List<Envelope> history() {
        EventSequence seq = EventSequence.create().config("node-a", io.kproxy.model.Json.Obj.EMPTY).synced();
        for (int i = 1; i <= 30; i++) {
            seq.then(ServiceFixture.service("ns", "s" + i).clusterIP("172.30.0." + i).port("p", 80, "TCP").observed(),
                    EndpointSliceFixture.slice("ns", "s" + i + "-1", "s" + i).port("p", 8080, "TCP").endpoint("10.0.1." + i).observed());
        }
        return seq.build();
    }

    private static FoldedState foldAll(List<Envelope> log, long upto) {
        FoldedState s = FoldedState.initial();
        for (Envelope e : log) {
            if (e.offset() <= upto) {
                s = s.apply(e).state();
            }
        }
        return s;
    }

    private static MemoryEventLog logOf(List<Envelope> envelopes) {
        MemoryEventLog log = new MemoryEventLog();
        envelopes.forEach(e -> log.append(e.source(), e.event()).join());
        return log;
    }

    @Test
    void snapshotPlusSuffixEqualsTheFoldFromTheStart() {
        List<Envelope> h = history();
        MemoryEventLog log = logOf(h);
        log.storeSnapshot(20, foldAll(h, 20).toSnapshot());
        log.storeSnapshot(40, foldAll(h, 40).toSnapshot());
        StateLoader.Loaded latest = StateLoader.latest(log);
        assertThat(latest.snapshotOffset()).isEqualTo(40);
        assertThat(latest.state()).isEqualTo(foldAll(h, h.size()));
        StateLoader.Loaded at30 = StateLoader.at(log, 30);
        assertThat(at30.snapshotOffset()).isEqualTo(20);
        assertThat(at30.state()).isEqualTo(foldAll(h, 30));
    }

    @Test
    void anUnreadableSnapshotIsSkippedForAnOlderOne() {
        List<Envelope> h = history();
        MemoryEventLog log = logOf(h);
        log.storeSnapshot(20, foldAll(h, 20).toSnapshot());
        log.storeSnapshot(40, new byte[] {(byte) 0xEE, 1, 2, 3});
        StateLoader.Loaded latest = StateLoader.latest(log);
        assertThat(latest.snapshotOffset()).isEqualTo(20);
        assertThat(latest.state()).isEqualTo(foldAll(h, h.size()));
    }

    @Test
    void anEmptyLogIsTheInitialState() {
        StateLoader.Loaded l = StateLoader.latest(new MemoryEventLog());
        assertThat(l.state()).isEqualTo(FoldedState.initial());
        assertThat(l.snapshotOffset()).isEqualTo(-1);
    }

    @Test
    void lostRecordsAreRefusedOrSteppedOverWhenTheCallerSaysSo() {
        List<Envelope> h = history();
        MemoryEventLog memory = logOf(h);
        memory.storeSnapshot(20, foldAll(h, 20).toSnapshot());
        ForwardingEventLog log = new ForwardingEventLog(memory) {
            @Override
            public List<Envelope> read(long fromOffset, int max) {
                if (fromOffset <= 33 && fromOffset + max > 30) { // offsets 30..33 are lost, as a damaged segment's
                    throw new EventLogException("offsets 30..33 are damaged", Math.max(30, fromOffset), 33);
                }
                return super.read(fromOffset, max);
            }
        };
        assertThatThrownBy(() -> StateLoader.latest(log)).isInstanceOf(EventLogException.class).hasMessageContaining("30..33");
        assertThat(StateLoader.at(log, 29).state()).as("a state before the loss is whole").isEqualTo(foldAll(h, 29));

        StateLoader.Loaded skipped = StateLoader.latest(log, StateLoader.LostRecords.SKIP);
        FoldedState held = FoldedState.initial();
        for (Envelope e : h) {
            if (e.offset() < 30 || e.offset() > 33) {
                held = held.apply(e).state();
            }
        }
        assertThat(skipped.state()).isEqualTo(held);
        assertThat(skipped.snapshotOffset()).isEqualTo(20);
        assertThat(skipped.lostRanges()).isEqualTo(1);
        assertThat(skipped.resumeAt()).isEqualTo(log.nextOffset());
    }
}
