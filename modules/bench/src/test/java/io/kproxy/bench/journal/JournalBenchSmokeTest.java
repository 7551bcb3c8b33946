package io.kproxy.bench.journal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.EndpointSliceObserved;
import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

/** The fixture is what the benchmarks claim, and every benchmark runs (on tiny journals). */
class JournalBenchSmokeTest {

    private static final Blackhole BH = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    @Test
    void observationsAreRealisticOneKilobyteEndpointSlices() {
        EndpointSliceFixture f = new EndpointSliceFixture(1);
        EndpointSliceObserved o = f.observation(3, 2);
        byte[] encoded = EventCodec.encode(Instant.parse("2025-06-03T00:00:00Z"), "source/kube", o);
        int json = EndpointSliceFixture.jsonLength(o.object());
        System.out.printf("EndpointSlice observation: %d bytes of JSON, %d bytes encoded%n", json, encoded.length);
        assertThat(o.object().array("endpoints")).hasSize(5);
        assertThat(json).isBetween(1_800, 2_600);
        assertThat(encoded.length).isBetween(900, 1_300);
        Envelope back = EventCodec.decode(0, encoded);
        assertThat(back.event()).isEqualTo(o);
    }

    @Test
    void appendBenchRuns() throws Exception {
        JournalAppendBench b = new JournalAppendBench();
        b.fsyncWindowMs = 1;
        b.inFlight = 32;
        b.open();
        b.resetLatency();
        JournalAppendBench.Producer p = new JournalAppendBench.Producer();
        for (int i = 0; i < 500; i++) {
            b.appendDurable(p);
        }
        b.drainAndReport();
        b.close();
    }

    @Test
    void replayAndTimeTravelBenchesRun() {
        JournalReplayBench r = new JournalReplayBench();
        r.records = 2_000;
        r.build();
        assertThat(r.replayDecoded(BH)).isEqualTo(2_000);
        assertThat(r.replaySmallPages(BH)).isEqualTo(2_000);
        assertThat(r.replayTail(BH)).isEqualTo(2_000);
        assertThat(r.scanFrames().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(2_000);
        r.close();

        JournalTimeTravelBench t = new JournalTimeTravelBench();
        t.records = 5_000;
        t.snapshotEvery = 1_000;
        t.snapshotBytes = 1024;
        t.build();
        for (int i = 0; i < 20; i++) {
            assertThat(t.offsetAt()).isPresent();
            assertThat(t.loadStateAt(BH)).isBetween(0L, 999L);
            assertThat(t.loadStateWorstCase(BH)).isEqualTo(999L);
        }
        t.close();
    }
}
