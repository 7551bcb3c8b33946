package io.kproxy.app.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.kproxy.config.ConfigTrees;
import io.kproxy.config.ProxyConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * oomScoreAdj (upstream's cmd/kube-proxy/app/server.go with pkg/util/oom/oom_linux.go) and the
 * whole start sequence, against a fake root directory; the test JVM's own score is never touched.
 */
class NodeSettingsTest {

    @TempDir
    Path dir;
    FakeRoot fake;
    long ownScoreBefore;

    @BeforeEach
    void setUp() throws IOException {
        fake = new FakeRoot(dir);
        ownScoreBefore = Sysctls.host().read(Knob.OOM_SCORE_ADJ);
    }

    @AfterEach
    void ownScoreUntouched() throws IOException {
        assertThat(Sysctls.host().read(Knob.OOM_SCORE_ADJ)).as("the test JVM's own score").isEqualTo(ownScoreBefore);
    }

    @Test
    void theOomScoreIsWrittenToTheProcesssFile() {
        assertThat(OomScoreAdj.apply(-999, fake.sysctls())).isEqualTo(new Setting.Applied(Knob.OOM_SCORE_ADJ, 0, -999));
        assertThat(fake.get(Knob.OOM_SCORE_ADJ)).isEqualTo(-999);
        assertThat(OomScoreAdj.apply(-999, fake.sysctls())).isInstanceOf(Setting.Kept.class);
    }

    @Test
    void zeroIsAValueForTheOomScoreNotLeaveAlone() {
        fake.set(Knob.OOM_SCORE_ADJ, 500);
        assertThat(OomScoreAdj.apply(0, fake.sysctls())).isEqualTo(new Setting.Applied(Knob.OOM_SCORE_ADJ, 500, 0));
    }

    @Test
    void anOomScoreThatCannotBeWrittenIsOnlyReported() throws IOException {
        // A directory where the file should be: the write fails, as a lowering without CAP_SYS_RESOURCE does.
        fake.remove(Knob.OOM_SCORE_ADJ);
        Files.createDirectory(dir.resolve(Knob.OOM_SCORE_ADJ.relativePath()));
        Setting s = OomScoreAdj.apply(-999, fake.sysctls());
        assertThat(s).isInstanceOf(Setting.Failed.class);
        assertThat(s.warning()).isTrue();
        assertThat(s.logLine()).startsWith("action=failed setting=/proc/self/oom_score_adj wanted=-999 error=\"");
    }

    @Test
    void theStartAppliesConntrackThenTheOomScoreOneOutcomePerKnob() throws IOException {
        ProxyConfig config = ConfigTrees.defaults();
        List<Setting> s = NodeSettings.applyAtStart(config, fake.sysctls());
        assertThat(s).extracting(Setting::knob).containsExactly(Knob.NF_CONNTRACK_MAX, Knob.CONNTRACK_HASHSIZE, Knob.TCP_TIMEOUT_ESTABLISHED,
                Knob.TCP_TIMEOUT_CLOSE_WAIT, Knob.TCP_BE_LIBERAL, Knob.UDP_TIMEOUT, Knob.UDP_TIMEOUT_STREAM, Knob.OOM_SCORE_ADJ);
        assertThat(config.oomScoreAdj()).as("upstream's default").isEqualTo(-999);
        assertThat(fake.get(Knob.OOM_SCORE_ADJ)).isEqualTo(-999);
        assertThat(fake.get(Knob.TCP_TIMEOUT_ESTABLISHED)).isEqualTo(86_400);
    }
}
