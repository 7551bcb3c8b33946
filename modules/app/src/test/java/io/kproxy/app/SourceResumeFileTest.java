package io.kproxy.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.events.ResourceKind;
import io.kproxy.source.kube.ResumePoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The resume point kept between two runs: used once, and only when the journal holds everything it speaks for. */
class SourceResumeFileTest {

    private static final ResumePoint POINT = new ResumePoint("https://10.0.0.1:6443",
            Map.of(ResourceKind.SERVICE, "1200", ResourceKind.ENDPOINT_SLICE, "1187"));

    @TempDir
    Path dir;

    @Test
    void whatIsWrittenAtStopIsTakenOnceAtTheNextStart() {
        SourceResumeFile.write(dir, POINT, 500);
        assertThat(dir.resolve(SourceResumeFile.NAME)).exists();
        assertThat(dir.resolve(SourceResumeFile.NAME + ".tmp")).doesNotExist();

        assertThat(SourceResumeFile.take(dir, 512, true)).isEqualTo(POINT);
        assertThat(dir.resolve(SourceResumeFile.NAME)).as("removed: a crash of this run must not reuse it").doesNotExist();
        assertThat(SourceResumeFile.take(dir, 512, true)).isEqualTo(ResumePoint.NONE);
    }

    @Test
    void noPointNoFile() {
        SourceResumeFile.write(dir, ResumePoint.NONE, 500);
        assertThat(dir.resolve(SourceResumeFile.NAME)).doesNotExist();
        assertThat(SourceResumeFile.take(dir, 500, true)).isEqualTo(ResumePoint.NONE);
    }

    @Test
    void aJournalShorterThanWhenItWasWrittenOrDamagedIsListedAndTheFileStillRemoved() {
        SourceResumeFile.write(dir, POINT, 500);
        assertThat(SourceResumeFile.take(dir, 499, true)).isEqualTo(ResumePoint.NONE);
        assertThat(dir.resolve(SourceResumeFile.NAME)).doesNotExist();

        SourceResumeFile.write(dir, POINT, 500);
        assertThat(SourceResumeFile.take(dir, 800, false)).isEqualTo(ResumePoint.NONE);
        assertThat(dir.resolve(SourceResumeFile.NAME)).doesNotExist();
    }

    @Test
    void eachFieldIsCheckedAndNamed() {
        assertThatThrownBy(() -> SourceResumeFile.parse("server=https://a:6443\nSERVICE=5\n", 10, true))
                .hasMessageStartingWith("journalEnd: not an offset");
        assertThatThrownBy(() -> SourceResumeFile.parse("journalEnd=-3\nserver=https://a:6443\n", 10, true))
                .hasMessageStartingWith("journalEnd: negative");
        assertThatThrownBy(() -> SourceResumeFile.parse("journalEnd=3\nSERVICE=5\n", 10, true))
                .hasMessage("server: missing");
        assertThatThrownBy(() -> SourceResumeFile.parse("journalEnd=3\nserver=https://a:6443\nPODS=5\n", 10, true))
                .hasMessage("PODS: not a resource kind");
        assertThatThrownBy(() -> SourceResumeFile.parse("journalEnd=3\nserver=https://a:6443\nSERVICE=\n", 10, true))
                .hasMessageContaining("resumeVersion");
        assertThat(SourceResumeFile.parse("journalEnd=3\nserver=https://a:6443\nSERVICE=7\n", 3, true))
                .isEqualTo(new ResumePoint("https://a:6443", Map.of(ResourceKind.SERVICE, "7")));
    }

    @Test
    void anUnparsableFileIsRefusedAndRemoved() throws Exception {
        Files.writeString(dir.resolve(SourceResumeFile.NAME), "journalEnd=\\u12\n");
        assertThat(SourceResumeFile.take(dir, 10, true)).isEqualTo(ResumePoint.NONE);
        assertThat(dir.resolve(SourceResumeFile.NAME)).doesNotExist();
    }
}
