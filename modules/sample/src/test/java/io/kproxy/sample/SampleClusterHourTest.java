package io.kproxy.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.events.Envelope;
import io.kproxy.journal.spi.Snapshot;
import io.kproxy.sample.simulator.Samples;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * events/samples/cluster-hour is what the generator writes, record for record: it is regenerated
 * into a temporary directory and compared. Run with {@code -Dsamples.update=true} to rewrite the
 * committed sample after an intended change (then review the README's moments table).
 */
class SampleClusterHourTest {

    private static final String REGENERATE = "if the change is intended, regenerate with "
            + "./mvnw -q -pl modules/sample -am verify -Dtest=SampleClusterHourTest -Dsurefire.failIfNoSpecifiedTests=false "
            + "-Dsamples.update=true (or ./kproxy samples generate --out events/samples/cluster-hour --force) and update events/samples/README.md";

    @Test
    void theCommittedSampleIsWhatTheGeneratorWritesRecordForRecord(@TempDir Path tmp) throws Exception {
        Path fresh = tmp.resolve("cluster-hour");
        List<SampleHistories.Moment> moments = SampleHistories.generateClusterHour(fresh);
        if (Boolean.getBoolean("samples.update")) {
            SampleHistories.clearJournal(Samples.CLUSTER_HOUR);
            SampleHistories.generateClusterHour(Samples.CLUSTER_HOUR);
            moments.forEach(m -> System.out.println(m.row()));
        }
        List<Envelope> want = Samples.records(Samples.CLUSTER_HOUR);
        List<Envelope> got = Samples.records(fresh);
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            assertThat(got.get(i)).as("record #%d; %s", i, REGENERATE).isEqualTo(want.get(i));
        }
        assertThat(got).as(REGENERATE).hasSameSizeAs(want);
        List<Snapshot> wantSnaps = Samples.snapshots(Samples.CLUSTER_HOUR);
        assertThat(Samples.snapshots(fresh)).as(REGENERATE).isEqualTo(wantSnaps);
        assertThat(wantSnaps).hasSizeGreaterThanOrEqualTo(3);
        assertThat(Samples.bytes(Samples.CLUSTER_HOUR)).as("the sample stays small").isLessThan(5L << 20);
    }
}
