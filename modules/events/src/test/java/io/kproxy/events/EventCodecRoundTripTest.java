package io.kproxy.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Property: for every generated event of every type, {@code decode(encode(e)) == e}, the
 * encoding is canonical ({@code encode(decode(b)) == b}), and the peeks agree with the full
 * decode. The seed is printed on failure; rerun one with {@code -Dcodec.seed=<seed>}.
 */
@Timeout(120)
class EventCodecRoundTripTest {

    static final int CASES = 12_000;

    @Test
    void everyGeneratedEventRoundTrips() {
        long seed = Long.getLong("codec.seed", System.nanoTime());
        EventGenerator gen = new EventGenerator(seed);
        EventType[] types = EventType.values();
        Map<EventType, Integer> seen = new EnumMap<>(EventType.class);
        for (int i = 0; i < CASES; i++) {
            EventType type = types[i % types.length];
            Envelope in = new Envelope(i, gen.instant(), gen.source(), gen.event(type));
            try {
                check(in);
            } catch (AssertionError | RuntimeException e) {
                fail("round trip failed for case " + i + " (" + type + ") with -Dcodec.seed=" + seed + ": " + e.getMessage(), e);
            }
            seen.merge(type, 1, Integer::sum);
        }
        assertThat(seen).as("every event type is generated").hasSize(types.length);
    }

    static void check(Envelope in) {
        byte[] bytes = EventCodec.encode(in);
        Envelope out = EventCodec.decode(in.offset(), bytes);
        assertThat(out).isEqualTo(in);
        assertThat(out.event().type()).isEqualTo(in.event().type());
        assertThat(EventCodec.encode(out)).as("canonical").isEqualTo(bytes);
        assertThat(EventCodec.peekType(bytes, 0, bytes.length)).isEqualTo(in.event().type());
        assertThat(EventCodec.peekRecordedAt(bytes, 0, bytes.length)).isEqualTo(in.recordedAt());
        // the same record inside a larger buffer, as a journal segment holds it
        byte[] framed = new byte[bytes.length + 7];
        System.arraycopy(bytes, 0, framed, 3, bytes.length);
        assertThat(EventCodec.decode(in.offset(), framed, 3, bytes.length)).isEqualTo(in);
        assertThat(EventCodec.peekType(framed, 3, bytes.length)).isEqualTo(in.event().type());
        assertThat(EventCodec.peekRecordedAt(framed, 3, bytes.length)).isEqualTo(in.recordedAt());
    }

    @Test
    void realisticRecordsRoundTrip() {
        for (CorpusRecords.Entry e : CorpusRecords.all()) {
            check(e.envelope());
        }
    }

    @Test
    void extremeInstantsRoundTrip() {
        EventGenerator gen = new EventGenerator(7);
        for (Instant t : new Instant[] {Instant.MIN, Instant.MAX, Instant.EPOCH, Instant.ofEpochSecond(-1, 999_999_999),
                Instant.ofEpochSecond(-1, 0), Instant.ofEpochSecond(0, 1)}) {
            check(new Envelope(0, t, "s", gen.event(EventType.DATAPLANE_UNPINNED)));
        }
    }
}
