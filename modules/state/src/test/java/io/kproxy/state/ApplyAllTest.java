package io.kproxy.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.Envelope;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link FoldedState#applyAll} equals applying the records one by one, however the log is cut into batches. */
class ApplyAllTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34})
    void batchesEqualOneByOne(long seed) {
        RandomCluster gen = new RandomCluster(seed);
        List<Envelope> log = new ArrayList<>(Logs.synced().build());
        for (int i = 0; i < FoldPropertiesTest.STEPS; i++) {
            log.add(FoldPropertiesTest.envelope(log.size(), gen.next()));
        }
        Random cuts = new Random(seed);
        FoldedState one = FoldedState.initial();
        FoldedState batched = FoldedState.initial();
        int from = 0;
        while (from < log.size()) {
            int to = Math.min(log.size(), from + 1 + cuts.nextInt(40));
            List<Envelope> batch = log.subList(from, to);
            for (Envelope e : batch) {
                one = one.apply(e).state();
            }
            batched = batched.applyAll(batch);
            String at = "seed=" + seed + " batch " + from + ".." + (to - 1);
            assertThat(batched).as(at).isEqualTo(one);
            assertThat(batched.node()).as(at + ": node").isEqualTo(one.node());
            assertThat(batched.node()).as(at + ": node == projection from scratch").isEqualTo(Projector.full(batched.cluster()));
            assertThat(batched.pin()).as(at + ": pin").isEqualTo(one.pin());
            from = to;
        }
    }

    @Test
    void emptyBatchIsThisStateAndOrderIsChecked() {
        FoldedState s = Logs.fold(Logs.synced());
        assertThat(s.applyAll(List.of())).isSameAs(s);
        Envelope old = FoldPropertiesTest.envelope(s.offset(), new RandomCluster(1).next());
        assertThatThrownBy(() -> s.applyAll(List.of(old))).isInstanceOf(IllegalArgumentException.class);
    }
}
