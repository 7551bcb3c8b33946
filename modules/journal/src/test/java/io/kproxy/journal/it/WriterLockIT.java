package io.kproxy.journal.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kproxy.journal.Fixtures;
import io.kproxy.journal.JournalOptions;
import io.kproxy.journal.LocalJournal;
import io.kproxy.journal.spi.EventLogException;
import io.kproxy.journal.spi.EventLogException.Kind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per directory: a second writer, in this process or another, is refused clearly; readers are not. */
class WriterLockIT {

    @TempDir
    Path tmp;

    @Test
    void aSecondWriterIsRefusedInProcessAndAcrossProcesses() throws Exception {
        Path dir = tmp.resolve("j");
        try (LocalJournal first = LocalJournal.open(JournalOptions.defaults(dir))) {
            first.append(Fixtures.drafts(0, 3)).join();
            assertThatThrownBy(() -> LocalJournal.open(JournalOptions.defaults(dir))).isInstanceOf(EventLogException.class)
                    .satisfies(e -> assertThat(((EventLogException) e).kind()).isEqualTo(Kind.LOCKED))
                    .hasMessageContaining(dir.toString()).hasMessageContaining("only one writer");

            List<String> out = runChild(dir);
            assertThat(out).hasSize(2);
            assertThat(out.get(0)).startsWith("LOCKED ").contains(dir.toString())
                    .contains("pid " + ProcessHandle.current().pid()); // names the holder
            assertThat(out.get(1)).isEqualTo("READ 3"); // a read-only open needs no lock
        }
        assertThat(runChild(dir)).containsExactly("OPENED 3", "READ 3"); // the lock went with the writer
    }

    private List<String> runChild(Path dir) throws Exception {
        try (ChildJvm child = ChildJvm.start(ChildJvm.javaCommand(LockingChild.class, dir.toString()), tmp.resolve("child.err"))) {
            List<String> out = child.rest(60);
            assertThat(child.waitFor(30)).isZero();
            return out;
        }
    }
}
