package io.kproxy.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kproxy.events.BatchDecodeException;
import io.kproxy.events.Envelope;
import io.kproxy.events.EventCodec;
import io.kproxy.events.RawRecord;
import io.kproxy.journal.spi.EventLog.Draft;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shared decoder returns what decoding one by one returns, and names the first bad record. */
class ReplayDecoderTest {

    private static List<RawRecord> records(long first, int n) {
        List<RawRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Draft d = Fixtures.draft(first + i);
            out.add(new RawRecord(first + i, EventCodec.encode(Instant.ofEpochSecond(1_750_000_000L + i), d.source(), d.event())));
        }
        return out;
    }

    @ParameterizedTest(name = "{0} records")
    @ValueSource(ints = {0, 1, 63, 64, 65, 500, 3_000})
    void decodesLikeOneByOne(int n) {
        List<RawRecord> raw = records(1_000, n);
        List<Envelope> want = raw.stream().map(r -> EventCodec.decode(r.offset(), r.bytes())).toList();
        assertThat(ReplayDecoder.decode(raw)).isEqualTo(want);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 8, 9})
    void theFirstBadRecordIsNamedWithTheRecordsBeforeIt(long seed) {
        Random rnd = new Random(seed);
        System.out.println("ReplayDecoderTest seed=" + seed);
        List<RawRecord> raw = new ArrayList<>(records(0, 40 + rnd.nextInt(2_000)));
        int first = rnd.nextInt(raw.size());
        int second = first + rnd.nextInt(raw.size() - first);
        for (int bad : new int[] {second, first}) {
            byte[] garbage = raw.get(bad).bytes().clone();
            garbage[1] = (byte) 0xEE; // an event type tag that does not exist
            raw.set(bad, new RawRecord(bad, garbage));
        }
        BatchDecodeException e = catchThrowableOfType(BatchDecodeException.class, () -> ReplayDecoder.decode(raw));
        assertThat(e).as("seed %d", seed).isNotNull();
        assertThat(e.index()).as("seed %d", seed).isEqualTo(first);
        assertThat(e.offset()).isEqualTo(first);
        assertThat(e.decodedBefore()).isEqualTo(ReplayDecoder.decode(raw.subList(0, first)));
    }
}
